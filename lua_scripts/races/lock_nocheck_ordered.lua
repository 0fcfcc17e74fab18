-- lock_nocheck_ordered (race-free): Ranks 1 and 2 take lock(0, "exclusive", "nocheck") one after the other,
-- separated by a barrier: the promise holds.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
  end,
  run = function(ctx)
    if rma.rank == 1 then
      ctx.win:lock(0, "exclusive", "nocheck")
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:unlock(0)
    end
    rma.barrier()
    if rma.rank == 2 then
      ctx.win:lock(0, "exclusive", "nocheck")
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:unlock(0)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
