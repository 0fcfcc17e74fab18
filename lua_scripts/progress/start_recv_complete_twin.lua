-- The twin of start/recv/complete that must deadlock in every progress mode: rank 0 waits in
-- recv before it completes its access epoch, and rank 1 only sends after its wait, which
-- needs rank 0's complete. No progress engine can help; the harness must report a deadlock
-- with both ranks blocked in library calls.
return {
  ranks = 2,
  expect = "deadlock",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.data = rma.buffer(8, "u8"):fill(3)
    ctx.msg = rma.buffer(8, "u8")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:start({1})
      ctx.win:put(ctx.data, 1, 0)
      rma.recv(1, ctx.msg, 5)
      ctx.win:complete()
    else
      ctx.win:post({0})
      ctx.win:wait()
      rma.send(0, ctx.msg, 5)
    end
  end,
}
