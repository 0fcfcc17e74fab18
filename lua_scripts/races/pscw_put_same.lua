-- pscw_put_same (racy): Ranks 1 and 2 put to the same bytes of rank 0 in one exposure epoch.
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:post({1, 2})
      ctx.win:wait()
    else
      ctx.win:start({0})
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:complete()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
