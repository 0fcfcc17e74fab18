-- lock_all_flush_barrier_get (race-free): Inside lock_all, rank 1 puts to rank 0 and flushes before a barrier; rank 2
-- gets the bytes after the barrier: flush then barrier orders the put before the get.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(4)
  end,
  run = function(ctx)
    ctx.win:lock_all()
    if rma.rank == 1 then
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:flush(0)
    end
    rma.barrier()
    if rma.rank == 2 then ctx.win:get(ctx.v, 0, 0) end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
