-- shared_store_store (racy): A shared window: rank 1 stores into rank 0's part through shared_query
-- while rank 0 stores into the same bytes; no synchronization between them.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64, flavor = "shared" }
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:local_buffer("i64"):set(0, 1)
    else
      ctx.win:shared_query(0, "i64"):set(0, 2)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
