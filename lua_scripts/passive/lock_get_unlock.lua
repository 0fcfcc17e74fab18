-- lock-get-unlock: a single get between lock and unlock. The lock request travels with the
-- get and the get's reply doubles as the unlock's acknowledgement: two messages.
return {
  ranks = 2,
  options = { size = {"bytes per get", 8} },
  setup = function(ctx)
    ctx.win = rma.window{ size = math.max(rma.opt.size, 8) }
    ctx.win:local_buffer():sub(0, rma.opt.size):iota(rma.rank * 3 + 1)
    ctx.into = rma.buffer(rma.opt.size, "u8")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "shared")
      ctx.win:get(ctx.into, 1, 0)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then
      rma.expect_eq(ctx.into, rma.buffer(rma.opt.size, "u8"):iota(4), "got rank 1's data")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  -- Whatever the size: a large reply streams as transport fragments after get_resp.
  messages = { total = 2, get = 1, get_resp = 1 },
}
