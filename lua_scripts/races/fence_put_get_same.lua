-- fence_put_get_same (racy): Rank 1 puts to bytes of rank 0 that rank 2 gets in the same fence epoch: a
-- write and a read nothing orders.
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(7)
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank == 1 then ctx.win:put(ctx.v, 0, 0) end
    if rma.rank == 2 then ctx.win:get(ctx.v, 0, 0) end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
