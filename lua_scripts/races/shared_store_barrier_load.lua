-- shared_store_barrier_load (race-free): A shared window: rank 0 stores into its part, a barrier, then rank 1 loads
-- it through shared_query.
return {
  ranks = 2,
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
