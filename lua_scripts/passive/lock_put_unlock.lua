-- lock-put-unlock: rank 0 locks rank 1, puts, unlocks. The seed protocol's showcase: the lock
-- request travels with the single put, the target's ack is both the put's completion and the
-- unlock — one round trip, two messages, and no unlock packet.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  options = { size = {"bytes per put", 8} },
  setup = function(ctx)
    ctx.win = rma.window{ size = math.max(4096, rma.opt.size) }
    ctx.buf = rma.buffer(rma.opt.size, "u8"):iota(7)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:put(ctx.buf, 1, 0)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer():sub(0, rma.opt.size):checksum(), ctx.buf:checksum(),
                    "put data arrived")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  -- Above the eager limit the put goes by rendezvous: under ch3 it cannot carry the lock
  -- request (lock, grant, put, cts, ack); under fewest it does, and the cts is the grant.
  messages = function()
    if rma.opt.size <= rma.eager_limit then return { total = 2, put = 1, ack = 1 } end
    return counts.with_epoch({ put = 1, cts = 1, ack = 1 }, "lock", 1)
  end,
}
