-- post/start/complete/wait with no op: post's message, and one zero-byte done from complete
-- because no op could carry it. Two messages.
return {
  ranks = 2,
  setup = function(ctx) ctx.win = rma.window{ size = 8 } end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:start({1})
      ctx.win:complete()
    else
      ctx.win:post({0})
      ctx.win:wait()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 2, post = 1, done = 1 },
}
