-- pscw_start_nocheck_after_barrier (race-free): the twin of pscw_start_nocheck_unordered:
-- rank 1 posts with nocheck before a barrier that rank 0 passes before its nocheck start, so
-- the promise holds.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      rma.barrier()
      ctx.win:start({1}, "nocheck")
      ctx.win:put(ctx.v, 1, 0)
      ctx.win:complete()
    else
      ctx.win:post({0}, "nocheck")
      rma.barrier()
      ctx.win:wait()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
