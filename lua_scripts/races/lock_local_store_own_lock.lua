-- lock_local_store_own_lock (race-free): Rank 1 puts to rank 0 under an exclusive lock; rank 0 stores into the same
-- bytes inside its own exclusive lock on itself: the two locks exclude each other.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    ctx.win:lock(0, "exclusive")
    if rma.rank == 1 then
      ctx.win:put(ctx.v, 0, 0)
    else
      ctx.win:local_buffer("i64"):set(0, 2)
    end
    ctx.win:unlock(0)
  end,
  teardown = function(ctx) ctx.win:free() end,
}
