-- lock_all_no_flush_barrier_get (racy): As lock_all_flush_barrier_get without the flush: the put completes only at
-- unlock_all, after the barrier, so nothing orders it before rank 2's get.
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(4)
  end,
  run = function(ctx)
    ctx.win:lock_all()
    if rma.rank == 1 then ctx.win:put(ctx.v, 0, 0) end
    rma.barrier()
    if rma.rank == 2 then ctx.win:get(ctx.v, 0, 0) end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
