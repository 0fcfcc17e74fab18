-- lock, put, flush, put, unlock: flush ends a batch, so each put is its own singleton: the
-- first carries the lock request and asks for the ack (which is also the grant), the second
-- carries the unlock. Four messages; data checked through a third rank's view after flush.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 16 }
    ctx.a = rma.buffer(8, "u8"):fill(1)
    ctx.b = rma.buffer(8, "u8"):fill(2)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:put(ctx.a, 1, 0)
      ctx.win:flush(1)
      ctx.win:put(ctx.b, 1, 8)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      local m = ctx.win:local_buffer()
      rma.expect_eq(m:sub(0, 8), ctx.a, "first put")
      rma.expect_eq(m:sub(8, 8), ctx.b, "second put")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 4, put = 2, ack = 2 },
}
