-- post and start with nocheck: the program guarantees the post happened before the start
-- (here by a barrier), so post sends nothing and start does not wait. One message: the put
-- carrying complete's done.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
    ctx.a = rma.buffer(8, "u8"):fill(8)
  end,
  run = function(ctx)
    if rma.rank == 1 then ctx.win:post({0}, "nocheck") end
    rma.barrier()
    if rma.rank == 0 then
      ctx.win:start({1}, "nocheck")
      ctx.win:put(ctx.a, 1, 0)
      ctx.win:complete()
    else
      ctx.win:wait()
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then rma.expect_eq(ctx.win:local_buffer(), ctx.a, "put arrived") end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 1, put = 1 },
}
