-- Bandwidth of puts or gets, as OSU's one-sided bandwidth tests measure it: rank 0 issues a
-- window of `window` operations of `size` bytes to rank 1 per synchronization (lock: one
-- lock-unlock epoch around them; flush / flush_local: one flush inside a lock_all held across
-- iterations; lock_all; pscw: one start-complete against post-wait; fence). The benchmark's
-- bytes_per_second counter is window * size bytes per iteration over the measured time.
local common = require("common")

return {
  ranks = 2,
  options = {
    op = {"put | get", "put"},
    sync = {"lock | flush | flush_local | lock_all | pscw | fence", "lock"},
    size = {"bytes per operation", 65536},
    window = {"operations per synchronization", 16},
    flavor = {"create | allocate | dynamic | shared", "allocate"},
  },
  setup = function(ctx)
    if rma.size < 2 then rma.skip("needs an origin and a target") end
    if rma.opt.op ~= "put" and rma.opt.op ~= "get" then rma.fail("bandwidth: op is put or get") end
    ctx.win, ctx.disp = common.window(rma.opt.flavor, rma.opt.size)
    ctx.data = rma.buffer(rma.opt.size, "u8"):iota(3)
    common.open_held(ctx, rma.opt.op)
  end,
  run = function(ctx)
    common.iteration(ctx, rma.opt.sync, function()
      for _ = 1, rma.opt.window do common.op(ctx, rma.opt.op) end
    end)
  end,
  check = function(ctx)
    if rma.rank == 1 and rma.opt.op == "put" and rma.opt.flavor ~= "dynamic" then
      rma.expect_eq(ctx.win:local_buffer():sub(0, rma.opt.size), ctx.data, "the puts arrived")
    end
  end,
  teardown = common.teardown,
  messages = function()
    return { total = common.am_messages(rma.opt.op, rma.opt.sync, rma.opt.size, rma.opt.window) }
  end,
}
