-- Windows are independent: two windows of the same ranks are in different epochs at the
-- same time — window A in a fence epoch, window B in a lock_all epoch opened inside it and
-- closed after A's fence — and every op must go to the window it was issued on, every
-- synchronization call must complete only its own window's ops. MPI keeps the epochs of
-- different windows apart; an implementation that routed a packet by the wrong window id,
-- or let a fence complete another window's ops, would mix the data up. Each rank puts a
-- different value into each window of its right neighbour. Messages (am, n ≥ 2): A's put per
-- rank and the fence's exchange (counts.fence); B's put per rank with its ack (the flush; the put carries the lock) and
-- the unlock packet.
local counts = require("counts")  -- the fence's exchange, docs/message-counts.md

return {
  ranks = 3,
  setup = function(ctx)
    ctx.a = rma.window{ size = 8 }
    ctx.b = rma.window{ size = 8 }
    ctx.va = rma.buffer(1, "i64"):set(0, 1000 + rma.rank)
    ctx.vb = rma.buffer(1, "i64"):set(0, 2000 + rma.rank)
  end,
  run = function(ctx)
    local right = (rma.rank + 1) % rma.size
    ctx.a:fence("noprecede")
    ctx.b:lock_all()
    ctx.a:put(ctx.va, right, 0)
    ctx.b:put(ctx.vb, right, 0)
    ctx.b:flush_all()
    ctx.a:fence("nosucceed")
    ctx.b:unlock_all()
  end,
  check = function(ctx)
    local left = (rma.rank - 1) % rma.size
    rma.expect_eq(ctx.a:local_buffer("i64"):get(0), 1000 + left, "window A got A's put")
    rma.expect_eq(ctx.b:local_buffer("i64"):get(0), 2000 + left, "window B got B's put")
    rma.expect(ctx.a:id() ~= ctx.b:id(), "two windows, two ids")
  end,
  teardown = function(ctx) ctx.b:free(); ctx.a:free() end,
  messages = function()
    local n = rma.size
    if n == 1 then return { total = 0 } end
    return counts.total(counts.add({ put = 2 * n, ack = n, unlock = n },
                                   counts.fence(counts.ring_pairs())))
  end,
}
