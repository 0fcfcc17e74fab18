-- lock_nocheck_concurrent (racy): Ranks 1 and 2 both take lock(0, "exclusive", "nocheck") with nothing
-- ordering the two epochs: nocheck promised no other rank holds a conflicting lock — a
-- broken promise (the implementation skips the lock and cannot tell).
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
  end,
  run = function(ctx)
    if rma.rank > 0 then
      ctx.win:lock(0, "exclusive", "nocheck")
      ctx.win:put(ctx.v, 0, 8 * rma.rank)
      ctx.win:unlock(0)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
