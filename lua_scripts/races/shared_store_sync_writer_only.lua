-- shared_store_sync_writer_only (racy): the twin of shared_store_sync_barrier_sync_load with
-- the reader's win:sync() left out: the barrier orders the ranks, but the reader's view of
-- memory is not synchronized before its load.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64, flavor = "shared" }
  end,
  run = function(ctx)
    ctx.win:lock_all()
    if rma.rank == 0 then
      ctx.win:local_buffer("i64"):set(0, 5)
      ctx.win:sync()
    end
    rma.barrier()
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:shared_query(0, "i64"):get(0), 5, "store seen")
    end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
