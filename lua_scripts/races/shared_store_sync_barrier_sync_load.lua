-- shared_store_sync_barrier_sync_load (race-free): MPI-3.1 example 11.21 in small: inside
-- lock_all, rank 0 stores into its part of a shared window and calls win:sync(), a barrier,
-- then rank 1 calls win:sync() and loads it through shared_query.
return {
  ranks = 2,
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
      ctx.win:sync()
      rma.expect_eq(ctx.win:shared_query(0, "i64"):get(0), 5, "store seen")
    end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
