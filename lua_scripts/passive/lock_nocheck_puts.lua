-- lock with nocheck: the caller promises no conflicting lock exists, so no lock exchange
-- happens at all. Three puts and the ack of the last: four messages.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.a = rma.buffer(8, "u8"):fill(4)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive", "nocheck")
      ctx.win:put(ctx.a, 1, 0)
      ctx.win:put(ctx.a, 1, 8)
      ctx.win:put(ctx.a, 1, 16)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer():sub(0, 24), rma.buffer(24, "u8"):fill(4), "all puts")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 4, put = 3, ack = 1 },
}
