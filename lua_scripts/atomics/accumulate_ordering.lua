-- Accumulate ordering from one origin. MPI orders accumulates from one origin to the same
-- target location by default (accumulate_ordering rar,raw,war,waw): within one epoch, a
-- replace followed by a sum on the same elements must apply in that order, whatever the
-- transport does with them. Each rank sends its right neighbour, in one epoch: replace of
-- `count` i64 elements, a sum into element 0 only (a small op after a possibly large one:
-- it must not overtake it), a get_accumulate(sum) of all elements (which must return the
-- result of the first two), a replace of the last element, and a get_accumulate(no_op)
-- that must read the result of all four. Plain gets are not ordered with accumulates (the
-- am path moves them last), so the read-backs are get_accumulates. With `count` large
-- enough (4096 elements = 32 KiB) the big replace and get_accumulate go by rendezvous while
-- the small ones are eager. Messages (am), n ≥ 2: per rank 5 ops, 2 replies and a cts per
-- large op (2), plus lock and grant (lock, lock_all), the post (pscw), or E(n) in all
-- (fence).
local counts = require("counts")  -- messages an epoch costs (lib/)
local epoch = require("epoch")    -- the epoch rma.opt.sync names (lib/)

return {
  ranks = 2,
  options = {
    sync = epoch.option(),
    count = {"i64 elements per large accumulate", 4},
  },
  setup = function(ctx)
    local n = rma.opt.count
    ctx.win = rma.window{ size = 8 * n }
    ctx.win:local_buffer("i64"):iota(1)
    ctx.a = rma.buffer(n, "i64"):iota(100 + rma.rank, 3)
    ctx.b = rma.buffer(1, "i64"):set(0, 7)
    ctx.c = rma.buffer(n, "i64"):fill(5)
    ctx.d = rma.buffer(1, "i64"):set(0, -99)
    ctx.mid = rma.buffer(n, "i64")
    ctx.res = rma.buffer(n, "i64")
  end,
  run = function(ctx)
    local win, n = ctx.win, rma.opt.count
    local right = epoch.open_ring(win, rma.opt.sync)

    win:accumulate(ctx.a, right, 0, "replace")
    win:accumulate(ctx.b, right, 0, "sum")
    win:get_accumulate(ctx.c, ctx.mid, right, 0, "sum")
    win:accumulate(ctx.d, right, 8 * (n - 1), "replace")
    win:get_accumulate(nil, ctx.res, right, 0, "no_op")

    epoch.close_ring(win, rma.opt.sync)
  end,
  check = function(ctx)
    local n = rma.opt.count
    local left = (rma.rank - 1) % rma.size
    -- What the left neighbour's ops make of my window, in their order.
    local want = rma.buffer(n, "i64"):iota(1):apply("replace", rma.buffer(n, "i64"):iota(100 + left, 3))
    want:sub(0, 1):apply("sum", 7)
    want:apply("sum", 5)
    want:sub(n - 1, 1):apply("replace", -99)
    rma.expect_eq(ctx.win:local_buffer("i64"), want, "the four accumulates applied in order")
    -- What my ops read at my right neighbour.
    local mine = rma.buffer(n, "i64"):iota(100 + rma.rank, 3)
    mine:sub(0, 1):apply("sum", 7)
    rma.expect_eq(ctx.mid, mine, "get_accumulate(sum) read after the replace and the first sum")
    mine:apply("sum", 5)
    mine:sub(n - 1, 1):apply("replace", -99)
    rma.expect_eq(ctx.res, mine, "get_accumulate(no_op) read after all four")
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n = rma.size
    if n == 1 then return { total = 0 } end
    local by = { accumulate = 3 * n, get_accumulate = 2 * n, get_accumulate_resp = 2 * n }
    if 8 * rma.opt.count > rma.eager_limit then by.cts = 2 * n end
    return counts.with_epoch(by, rma.opt.sync, counts.ring_pairs())
  end,
}
