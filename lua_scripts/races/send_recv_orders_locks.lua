-- send_recv_orders_locks (race-free): Rank 1 puts to rank 0 under a shared lock, unlocks and sends to rank 2, which
-- then gets the bytes under its own shared lock: unlock → send → recv → lock orders them.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(8)
    ctx.token = rma.buffer(1, "u8")
  end,
  run = function(ctx)
    if rma.rank == 1 then
      ctx.win:lock(0, "shared")
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:unlock(0)
      rma.send(2, ctx.token)
    elseif rma.rank == 2 then
      rma.recv(1, ctx.token)
      ctx.win:lock(0, "shared")
      ctx.win:get(ctx.v, 0, 0)
      ctx.win:unlock(0)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
