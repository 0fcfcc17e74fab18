-- flush_local lets the origin reuse its buffer. Rank 0 puts one buffer to rank 1 `rounds`
-- times inside one lock epoch, each time into a new slot, calling flush_local after each put
-- and then overwriting the buffer with the next round's data. MPI_Win_flush_local completes
-- the operation at the origin only: the data has left the buffer (it may still be on its
-- way), so the buffer may be changed; each slot must hold its own round's data, never a
-- later round's. `size` above the eager limit makes each put a rendezvous, where the data
-- leaves the buffer only after the target answered. `flush=flush_local_all` uses the _all
-- form. Messages (am, eager): the first put carries the lock and asks for an ack (the
-- grant), the others go alone, and the unlock asks for the ack of all of them — rounds + 3.
return {
  ranks = 2,
  options = {
    size = {"bytes per put", 64},
    rounds = {"puts, each followed by flush_local", 8},
    flush = {"flush_local or flush_local_all", "flush_local"},
  },
  setup = function(ctx)
    if rma.size < 2 then rma.skip("needs an origin and a target: two ranks") end
    ctx.win = rma.window{ size = rma.opt.size * rma.opt.rounds }
    ctx.buf = rma.buffer(rma.opt.size, "u8")
  end,
  run = function(ctx)
    if rma.rank ~= 0 then return end
    ctx.win:lock(1, "exclusive")
    for k = 1, rma.opt.rounds do
      ctx.buf:iota(k * 7)
      ctx.win:put(ctx.buf, 1, (k - 1) * rma.opt.size)
      if rma.opt.flush == "flush_local_all" then ctx.win:flush_local_all() else ctx.win:flush_local(1) end
    end
    ctx.buf:fill(0xAB)  -- after the last flush_local too
    ctx.win:unlock(1)
  end,
  check = function(ctx)
    if rma.rank ~= 1 then return end
    local mem = ctx.win:local_buffer()
    for k = 1, rma.opt.rounds do
      rma.expect_eq(mem:sub((k - 1) * rma.opt.size, rma.opt.size),
                    rma.buffer(rma.opt.size, "u8"):iota(k * 7), "round " .. k .. "'s data")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    if rma.opt.size > rma.eager_limit then return nil end
    local r = rma.opt.rounds
    return { total = r + 3, put = r, ack = 2, unlock = 1 }
  end,
}
