-- accumulate ring, the first pattern of the tutorial in docs/writing-patterns.md: each rank
-- adds a buffer into its right neighbour's window inside one lock epoch. It shows every part
-- of a pattern: options the suite can sweep, a window created and freed collectively, an
-- epoch opened and closed, data checked against the harness's oracle (never against what the
-- implementation computed), and the message count the am protocol defines — the accumulate
-- carries the lock request and the unlock, its ack grants, completes and releases: 2 per rank
-- (more above the eager limit, where it goes by rendezvous).
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 4,
  options = {
    count = {"elements per accumulate", 8},
    op = {"accumulate op", "sum"},
  },
  setup = function(ctx)
    local n = rma.opt.count
    ctx.win = rma.window{ size = 8 * n }                   -- collective: every rank
    ctx.win:local_buffer("i64"):iota(100)                  -- the target's initial values
    ctx.add = rma.buffer(n, "i64"):iota(rma.rank + 1, 2)   -- this rank's operand
  end,
  run = function(ctx)
    local right = (rma.rank + 1) % rma.size
    ctx.win:lock(right, "exclusive")
    ctx.win:accumulate(ctx.add, right, 0, rma.opt.op)
    ctx.win:unlock(right)                                  -- complete at the target
  end,
  check = function(ctx)
    local n, left = rma.opt.count, (rma.rank - 1) % rma.size
    local want = rma.buffer(n, "i64"):iota(100)
    want:apply(rma.opt.op, rma.buffer(n, "i64"):iota(left + 1, 2))  -- the oracle
    rma.expect_eq(ctx.win:local_buffer("i64"), want, "the left neighbour's accumulate")
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n = rma.size
    if n == 1 then return { total = 0 } end                -- ops to self send nothing
    if 8 * rma.opt.count <= rma.eager_limit then
      return { total = 2 * n, accumulate = n, ack = n }
    end
    -- Above the eager limit the accumulate goes by rendezvous: under ch3 it cannot carry the
    -- lock (lock, grant, accumulate, cts, ack); under fewest it does, the cts is the grant.
    return counts.with_epoch({ accumulate = n, cts = n, ack = n }, "lock", n)
  end,
}
