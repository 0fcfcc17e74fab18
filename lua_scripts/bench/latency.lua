-- Latency of one RMA operation under one synchronization mode, as OSU's one-sided benchmarks
-- measure it: rank 0 is the origin, rank 1 the target; every iteration is a whole epoch
-- (lock: lock-op-unlock; lock_all: lock_all-op-unlock_all; flush and flush_local: op then the
-- flush inside a lock_all held across iterations; pscw: start-op-complete against
-- post-wait; fence: fence(noprecede)-op-fence(nosucceed)). Benchmark it with
-- `rmabench bench lua_scripts/bench/latency.lua -o op=get --sync lock,flush --sizes 1:1M`;
-- run as a case it checks the data and the messages of one iteration.
local common = require("common")
local typemap = require("typemap")

return {
  ranks = 2,
  options = {
    op = {"put | get | accumulate | get_accumulate | fetch_and_op | compare_and_swap", "put"},
    sync = {"lock | flush | flush_local | lock_all | pscw | fence", "lock"},
    size = {"bytes per operation", 8},
    dtype = {"element dtype of put and get (a pair too); the accumulate family moves i64", "u8"},
    flavor = {"create | allocate | dynamic | shared", "allocate"},
  },
  setup = function(ctx)
    if rma.size < 2 then rma.skip("needs an origin and a target") end
    local op = rma.opt.op
    local dt = rma.opt.dtype
    if not (typemap.BASIC[dt] or typemap.PAIR[dt]) then
      rma.fail("-o dtype=" .. dt .. ": not a dtype (i8 ... f64, or a pair such as long_int)")
    end
    if dt ~= "u8" then  -- a figure is named by its size: it must be what moves
      if op ~= "put" and op ~= "get" then
        rma.fail("-o dtype=" .. dt .. ": only put and get take a dtype (the accumulate family moves i64)")
      end
      local one = common.element_bytes(op, dt)
      if rma.opt.size == 0 or rma.opt.size % one ~= 0 then
        rma.fail(string.format("-o dtype=%s: size %d is not a whole number of %d-byte elements, one at least",
                               dt, rma.opt.size, one))
      end
    end
    ctx.bytes = common.op_bytes(op, rma.opt.size, rma.opt.dtype)
    ctx.win, ctx.disp = common.window(rma.opt.flavor, math.max(ctx.bytes, 8))
    ctx.dtype = common.dtype(op, rma.opt.dtype)
    local count = ctx.bytes // common.element_bytes(op, rma.opt.dtype)
    ctx.data = rma.buffer(count, ctx.dtype)
    if typemap.PAIR[ctx.dtype] then ctx.data:fill(1, 1) else ctx.data:fill(1) end  -- (value, index)
    ctx.result = rma.buffer(count, ctx.dtype)
    common.open_held(ctx, op)   -- flush modes: the epoch (and its lock) spans the iterations
  end,
  run = function(ctx)
    common.iteration(ctx, rma.opt.sync, function() common.op(ctx, rma.opt.op) end)
  end,
  check = function(ctx)
    if rma.rank == 1 and rma.opt.op == "put" and rma.opt.flavor ~= "dynamic" then
      rma.expect_eq(ctx.win:local_buffer(ctx.dtype):sub(0, #ctx.data), ctx.data, "the put arrived")
    end
  end,
  teardown = common.teardown,
  messages = function()
    return { total = common.am_messages(rma.opt.op, rma.opt.sync,
                                          common.op_bytes(rma.opt.op, rma.opt.size, rma.opt.dtype)) }
  end,
}
