-- lock_shared_puts (racy): Ranks 1 and 2 put to the same bytes of rank 0 under shared locks: shared
-- locks do not exclude each other.
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
  end,
  run = function(ctx)
    if rma.rank > 0 then
      ctx.win:lock(0, "shared")
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:unlock(0)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
