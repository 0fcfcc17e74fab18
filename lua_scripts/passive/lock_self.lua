-- Lock on self: a rank opens a passive epoch on its own window and puts, accumulates and
-- gets there like on any target, with its own window's lock manager deciding. MPI requires
-- lock/unlock on self to work like any other target (and the window's memory to be
-- consistent after unlock, so a local load then sees every update). On the am path a
-- rank's own window needs no packet at all: the lock is taken locally and the ops applied
-- at once, so the epoch costs 0 messages; on the direct path the lock is the same shared
-- word any origin uses. Data is checked against the harness's oracle.
return {
  ranks = 2,
  options = {
    lock = {"lock type: shared or exclusive", "exclusive"},
    count = {"i64 elements per op", 4},
  },
  setup = function(ctx)
    local n = rma.opt.count
    ctx.win = rma.window{ size = 3 * 8 * n }
    ctx.win:local_buffer("i64"):sub(n, n):iota(50, 5)        -- accumulated into
    ctx.win:local_buffer("i64"):sub(2 * n, n):iota(rma.rank * 100) -- read back
    ctx.put = rma.buffer(n, "i64"):iota(rma.rank * 10 + 1)
    ctx.add = rma.buffer(n, "i64"):iota(-3, 7)
    ctx.got = rma.buffer(n, "i64")
  end,
  run = function(ctx)
    local me, n = rma.rank, rma.opt.count
    ctx.win:lock(me, rma.opt.lock)
    ctx.win:put(ctx.put, me, 0)
    ctx.win:accumulate(ctx.add, me, 8 * n, "sum")
    ctx.win:get(ctx.got, me, 16 * n)
    ctx.win:unlock(me)
  end,
  check = function(ctx)
    local n = rma.opt.count
    local mem = ctx.win:local_buffer("i64")
    rma.expect_eq(mem:sub(0, n), ctx.put, "put to self, seen by a local load")
    rma.expect_eq(mem:sub(n, n), rma.buffer(n, "i64"):iota(50, 5):apply("sum", ctx.add),
                  "accumulate to self")
    rma.expect_eq(ctx.got, rma.buffer(n, "i64"):iota(rma.rank * 100), "get from self")
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 0 },
}
