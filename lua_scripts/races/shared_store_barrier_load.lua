-- shared_store_barrier_load (racy): A shared window: rank 0 stores into its part, a barrier,
-- then rank 1 loads it through shared_query. The barrier orders the two ranks but not their
-- memory: MPI-3.1 (example 11.21) asks for win:sync() by the writer after its store and by
-- the reader before its load (shared_store_sync_barrier_sync_load is the race-free twin).
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64, flavor = "shared" }
  end,
  run = function(ctx)
    if rma.rank == 0 then ctx.win:local_buffer("i64"):set(0, 5) end
    rma.barrier()
    if rma.rank == 1 then rma.expect_eq(ctx.win:shared_query(0, "i64"):get(0), 5, "store seen") end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
