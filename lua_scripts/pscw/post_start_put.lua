-- post/start/put/complete/wait: the target's post is one zero-byte message, start sends
-- nothing, and the put carries complete's "done". Two messages.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.a = rma.buffer(16, "u8"):iota(3)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:start({1})
      ctx.win:put(ctx.a, 1, 8)
      ctx.win:complete()
    else
      ctx.win:post({0})
      ctx.win:wait()
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer():sub(8, 16), ctx.a, "put arrived by wait")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 2, post = 1, put = 1 },
}
