-- lock, put, flush_local, unlock: flush_local only needs the origin buffer free again, but
-- the put that carried the lock request must still confirm the grant, so it asks for an ack;
-- the unlock then needs no ack of its own. Three messages: put, ack, unlock.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
    ctx.a = rma.buffer(8, "u8"):fill(6)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:put(ctx.a, 1, 0)
      ctx.win:flush_local(1)
      ctx.a:fill(0)  -- the origin buffer may be reused after flush_local
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer(), rma.buffer(8, "u8"):fill(6), "the data put, not the reuse")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 3, put = 1, ack = 1, unlock = 1 },
}
