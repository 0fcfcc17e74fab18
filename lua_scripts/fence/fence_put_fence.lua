-- fence, put, fence: the first fence sends nothing; the closing fence exchanges how many
-- origins touch each rank (two messages for two ranks) and the put carries the "last op"
-- mark. Three messages.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.a = rma.buffer(8, "u8"):fill(5)
  end,
  run = function(ctx)
    ctx.win:fence()
    if rma.rank == 0 then ctx.win:put(ctx.a, 1, 0) end
    ctx.win:fence()
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer():sub(0, 8), ctx.a, "put visible after the fence")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 3, fence_count = 2, put = 1 },
}
