-- Every fence assert, each where it holds. Epoch A: puts to the right neighbour, closed by
-- a fence asserting nostore (no local store since the opening fence) and noput (epoch B,
-- which this fence opens, has gets only: nobody puts into or accumulates to this window).
-- Epoch B: gets from the left neighbour of a value it stored before the first fence, closed
-- with nosucceed (no epoch follows). Then a local store, outside any epoch, and epoch C:
-- opened with noprecede (nothing to close) but without nostore (there was a store), an
-- accumulate to the right neighbour, closed with nosucceed and nostore. MPI defines an
-- assert as a promise the program keeps; an implementation may only use it to do less.
-- `asserts=false` runs the same program with plain fences: the data must be the same, and
-- on the am path it costs one more count exchange (the fence between B and C then closes
-- an empty epoch). Messages (am, n ≥ 2): n puts, n gets and n replies, n accumulates, and
-- each closing fence's exchange (counts.fence: E(n) under ch3 — 4n + 3E(n) with asserts;
-- under fewest 2(n − 1) notes through rank 0 for n > 2, two riding on ops in each epoch with
-- ops, none for the empty one).
local counts = require("counts")  -- the fence's exchange, docs/message-counts.md

local function fence(win, list)
  win:fence(rma.opt.asserts and list or nil)
end

return {
  ranks = 4,
  options = { asserts = {"pass the asserts (false: plain fences)", true} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 32, disp_unit = 8 }
    ctx.win:local_buffer("i64"):set(2, 40)
    ctx.val = rma.buffer(1, "i64"):set(0, 100 + rma.rank)
    ctx.got = rma.buffer(1, "i64")
    ctx.add = rma.buffer(1, "i64"):set(0, rma.rank + 1)
  end,
  run = function(ctx)
    local right, left = (rma.rank + 1) % rma.size, (rma.rank - 1) % rma.size
    local mem = ctx.win:local_buffer("i64")
    mem:set(1, 700 + rma.rank)                -- a local store before the first fence
    fence(ctx.win, {"noprecede"})             -- opens A
    ctx.win:put(ctx.val, right, 0)
    fence(ctx.win, {"nostore", "noput"})      -- closes A, opens B (gets only)
    ctx.win:get(ctx.got, left, 1)
    if rma.opt.asserts then ctx.win:fence({"nosucceed", "nostore"}) else ctx.win:fence() end
    ctx.seen = mem:get(0)
    mem:set(3, 900 + rma.rank)                -- a local store between epochs
    fence(ctx.win, {"noprecede"})             -- opens C (no nostore: there was a store)
    ctx.win:accumulate(ctx.add, right, 2, "sum")
    if rma.opt.asserts then ctx.win:fence({"nosucceed", "nostore"}) else ctx.win:fence() end
  end,
  check = function(ctx)
    local left = (rma.rank - 1) % rma.size
    local mem = ctx.win:local_buffer("i64")
    rma.expect_eq(ctx.seen, 100 + left, "epoch A: the left neighbour's put")
    rma.expect_eq(ctx.got:get(0), 700 + left, "epoch B: got the left neighbour's stored value")
    rma.expect_eq(mem:get(2), rma.oracle("sum", "i64", 40, left + 1), "epoch C: the accumulate")
    rma.expect_eq(mem:get(3), 900 + rma.rank, "the local store between epochs")
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n = rma.size
    if n == 1 then return { total = 0 } end
    -- Each epoch with ops is a ring (to the right, or gets from the left: the same count).
    local k = 3 * counts.fence(counts.ring_pairs()).fence_count
    if not rma.opt.asserts then k = k + counts.fence({}).fence_count end
    return { total = 4 * n + k, put = n, get = n, get_resp = n, accumulate = n, fence_count = k }
  end,
}
