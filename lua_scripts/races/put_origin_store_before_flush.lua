-- put_origin_store_before_flush (racy): rank 0 puts a buffer to rank 1 and stores into that
-- buffer before anything completes the put: MPI lets the op read its origin buffer until the
-- op completes at the origin (flush_local, flush, unlock), so the put may carry either value.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:put(ctx.v, 1, 0)
      ctx.v:set(0, 2)  -- the origin buffer, before the put completed
      ctx.win:unlock(1)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
