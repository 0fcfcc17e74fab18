-- Latency of one RMA operation under one synchronization mode, as OSU's one-sided benchmarks
-- measure it: rank 0 is the origin, rank 1 the target; every iteration is a whole epoch
-- (lock: lock-op-unlock; lock_all: lock_all-op-unlock_all; flush and flush_local: op then the
-- flush inside a lock_all held across iterations; pscw: start-op-complete against
-- post-wait; fence: fence(noprecede)-op-fence(nosucceed)). Benchmark it with
-- `rmabench bench lua_scripts/bench/latency.lua -o op=get --sync lock,flush --sizes 1:1M`;
-- run as a case it checks the data and the messages of one iteration.
local common = require("common")

return {
  ranks = 2,
  options = {
    op = {"put | get | accumulate | get_accumulate | fetch_and_op | compare_and_swap", "put"},
    sync = {"lock | flush | flush_local | lock_all | pscw | fence", "lock"},
    size = {"bytes per operation", 8},
    flavor = {"create | allocate | dynamic | shared", "allocate"},
  },
  setup = function(ctx)
    if rma.size < 2 then rma.skip("needs an origin and a target") end
    local op = rma.opt.op
    ctx.bytes = common.op_bytes(op, rma.opt.size)
    ctx.win, ctx.disp = common.window(rma.opt.flavor, math.max(ctx.bytes, 8))
    local dtype = common.dtype(op)
    local count = ctx.bytes // (dtype == "i64" and 8 or 1)
    ctx.data = rma.buffer(count, dtype):fill(1)
    ctx.result = rma.buffer(count, dtype)
    common.open_held(ctx, op)   -- flush modes: the epoch (and its lock) spans the iterations
  end,
  run = function(ctx)
    common.iteration(ctx, rma.opt.sync, function() common.op(ctx, rma.opt.op) end)
  end,
  check = function(ctx)
    if rma.rank == 1 and rma.opt.op == "put" and rma.opt.flavor ~= "dynamic" then
      rma.expect_eq(ctx.win:local_buffer():sub(0, ctx.bytes), ctx.data, "the put arrived")
    end
  end,
  teardown = common.teardown,
  messages = function()
    return { total = common.am_messages(rma.opt.op, rma.opt.sync, common.op_bytes(rma.opt.op, rma.opt.size)) }
  end,
}
