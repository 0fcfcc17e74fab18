-- lock_all_put_same (racy): Inside lock_all, ranks 1 and 2 put to the same bytes of rank 0: lock_all
-- is a shared lock on every rank.
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
  end,
  run = function(ctx)
    ctx.win:lock_all()
    if rma.rank > 0 then ctx.win:put(ctx.v, 0, 0) end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
