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
    if rma.rank == 0 and (rma.opt.sync == "flush" or rma.opt.sync == "flush_local") then
      ctx.win:lock_all()
      common.op(ctx, rma.opt.op)
      ctx.win:flush(1)
    end
  end,
  run = function(ctx)
    local sync, w = rma.opt.sync, ctx.win
    local function ops() for _ = 1, rma.opt.window do common.op(ctx, rma.opt.op) end end
    if sync == "fence" then
      w:fence("noprecede")
      if rma.rank == 0 then ops() end
      w:fence("nosucceed")
    elseif sync == "pscw" then
      if rma.rank == 0 then w:start({1}); ops(); w:complete()
      elseif rma.rank == 1 then w:post({0}); w:wait() end
    elseif rma.rank == 0 then
      if sync == "lock" then w:lock(1, "exclusive"); ops(); w:unlock(1)
      elseif sync == "lock_all" then w:lock_all(); ops(); w:unlock_all()
      elseif sync == "flush" then ops(); w:flush(1)
      elseif sync == "flush_local" then ops(); w:flush_local(1)
      else rma.fail("unknown sync '" .. sync .. "'") end
    end
  end,
  check = function(ctx)
    if rma.rank == 1 and rma.opt.op == "put" and rma.opt.flavor ~= "dynamic" then
      rma.expect_eq(ctx.win:local_buffer():sub(0, rma.opt.size), ctx.data, "the puts arrived")
    end
  end,
  teardown = function(ctx)
    if rma.rank == 0 and (rma.opt.sync == "flush" or rma.opt.sync == "flush_local") then
      ctx.win:unlock_all()
    end
    ctx.win:free()
  end,
  messages = function()
    return { total = common.am_messages(rma.opt.op, rma.opt.sync, rma.opt.size, rma.opt.window) }
  end,
}
