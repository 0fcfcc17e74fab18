-- pscw_start_nocheck_unordered (racy): rank 0 starts with nocheck (the promise that rank 1's
-- matching post has already happened) while nothing orders rank 1's post before it.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:start({1}, "nocheck")
      ctx.win:put(ctx.v, 1, 0)
      ctx.win:complete()
    else
      ctx.win:post({0}, "nocheck")
      ctx.win:wait()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
