-- lock, three puts, unlock: with more than one op the lock request goes alone and the ops
-- wait for the grant; the last put carries the unlock and asks for the ack. Six messages:
-- request, grant, three puts, ack — and no separate unlock.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.a = rma.buffer(8, "u8"):fill(1)
    ctx.b = rma.buffer(8, "u8"):fill(2)
    ctx.c = rma.buffer(8, "u8"):fill(3)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:put(ctx.a, 1, 0)
      ctx.win:put(ctx.b, 1, 8)
      ctx.win:put(ctx.c, 1, 16)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      local mem = ctx.win:local_buffer()
      rma.expect_eq(mem:sub(0, 8), ctx.a, "first put")
      rma.expect_eq(mem:sub(8, 8), ctx.b, "second put")
      rma.expect_eq(mem:sub(16, 8), ctx.c, "third put")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 6, lock = 1, lock_granted = 1, put = 3, ack = 1 },
}
