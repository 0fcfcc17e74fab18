-- fence_local_store_remote_get (racy): Rank 0 stores into its own window while rank 1 gets those bytes in the same
-- fence epoch: a local store and a remote read nothing orders.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64")
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank == 0 then ctx.win:local_buffer("i64"):set(0, 42) end
    if rma.rank == 1 then ctx.win:get(ctx.v, 0, 0) end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
