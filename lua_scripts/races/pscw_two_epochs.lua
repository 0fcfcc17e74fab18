-- pscw_two_epochs (race-free): Rank 0 exposes its window to rank 1, then to rank 2; both put to the same
-- bytes, one per exposure epoch: wait → post orders them.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:post({1})
      ctx.win:wait()
      ctx.win:post({2})
      ctx.win:wait()
    else
      ctx.win:start({0})
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:complete()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
