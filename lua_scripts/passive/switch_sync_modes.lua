-- One window, three synchronization modes in turn: a fence epoch, then post/start/complete/
-- wait, then a lock epoch. MPI lets a window change modes between epochs (a fence with
-- nosucceed ends the fence sequence); the state each mode leaves behind must not disturb
-- the next. Each phase every rank writes to its right neighbour's window, into a slot of
-- its own, and the data of all three phases must be there at the end. Messages on the am
-- path, n ≥ 2 ranks: n puts and the exchange (counts.fence) for the fence (the opening fence is
-- free), n puts for PSCW (each carries the done) and, under ch3, n posts, and 2 per lock epoch
-- (the put carries lock and unlock; its ack) — 5n + E(n) under ch3, 4n + 2(n − 1) − 2 (n > 2)
-- under fewest.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 24, disp_unit = 8 }
    ctx.val = { rma.buffer(1, "i64"):set(0, 100 + rma.rank), rma.buffer(1, "i64"):set(0, 200 + rma.rank),
                rma.buffer(1, "i64"):set(0, 300 + rma.rank) }
  end,
  run = function(ctx)
    local right, left = (rma.rank + 1) % rma.size, (rma.rank - 1) % rma.size
    ctx.win:fence("noprecede")
    ctx.win:put(ctx.val[1], right, 0)
    ctx.win:fence("nosucceed")

    ctx.win:post({left})
    ctx.win:start({right})
    ctx.win:put(ctx.val[2], right, 1)
    ctx.win:complete()
    ctx.win:wait()

    ctx.win:lock(right, "exclusive")
    ctx.win:put(ctx.val[3], right, 2)
    ctx.win:unlock(right)
  end,
  check = function(ctx)
    local left = (rma.rank - 1) % rma.size
    local mem = ctx.win:local_buffer("i64")
    rma.expect_eq(mem:get(0), 100 + left, "fence epoch's put")
    rma.expect_eq(mem:get(1), 200 + left, "PSCW epoch's put")
    rma.expect_eq(mem:get(2), 300 + left, "lock epoch's put")
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n = rma.size
    if n == 1 then return { total = 0 } end
    local by = counts.add({ put = 3 * n, ack = n }, counts.post(n))
    counts.add(by, counts.fence(counts.ring_pairs()))
    return counts.total(by)
  end,
}
