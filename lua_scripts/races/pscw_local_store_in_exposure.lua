-- pscw_local_store_in_exposure (racy): Rank 0 stores into bytes of its window between post and wait while rank 1
-- puts to them: a local store in the exposure epoch a remote put targets.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:post({1})
      ctx.win:local_buffer("i64"):set(0, 2)
      ctx.win:wait()
    else
      ctx.win:start({0})
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:complete()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
