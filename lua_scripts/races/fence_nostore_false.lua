-- fence_nostore_false (racy): Rank 0 stores into its window, then fences with nostore: a false assert.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
  end,
  run = function(ctx)
    ctx.win:fence()
    if rma.rank == 0 then ctx.win:local_buffer("i64"):set(1, 3) end
    ctx.win:fence("nostore")
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
