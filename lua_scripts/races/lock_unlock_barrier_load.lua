-- lock_unlock_barrier_load (race-free): Rank 1 puts to rank 0 and unlocks; after a barrier rank 0 reads the bytes.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(6)
  end,
  run = function(ctx)
    if rma.rank == 1 then
      ctx.win:lock(0, "shared")
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:unlock(0)
    end
    rma.barrier()
    if rma.rank == 0 then rma.expect_eq(ctx.win:local_buffer("i64"):get(0), 6, "put arrived") end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
