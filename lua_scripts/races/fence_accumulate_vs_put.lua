-- fence_accumulate_vs_put (racy): Rank 1 accumulates into bytes rank 2 puts to in the same fence epoch: a put
-- is not an accumulate, so the two conflict.
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank == 1 then ctx.win:accumulate(ctx.v, 0, 0, "sum") end
    if rma.rank == 2 then ctx.win:put(ctx.v, 0, 0) end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
