-- pscw_post_noput_false (racy): rank 0 posts with noput (no put or accumulate will update
-- its window in this exposure epoch), yet rank 1 puts into it: a false assert the
-- implementation does not check.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:post({1}, "noput")
      ctx.win:wait()
    else
      ctx.win:start({0})
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:complete()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
