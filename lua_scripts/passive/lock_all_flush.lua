-- lock_all with flush: every rank opens one lock_all epoch, puts its id into its own slot of
-- every other rank's window, completes them remotely with flush (`flush=flush`, one call
-- per target) or flush_all, then reads its slot back from every target with a get. A flush
-- means the puts are complete at the targets, so the gets issued after it must see them
-- (the gets would be racing the puts without it). After unlock_all each target checks it
-- holds one value per origin. On the am path each pair costs 4 messages: the put carrying
-- the shared lock request and its ack (the flush), then the get carrying the unlock and its
-- reply (the unlock's acknowledgement).
return {
  ranks = 4,
  options = { flush = {"flush (per target) or flush_all", "flush_all"} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 * rma.size, disp_unit = 8 }
    ctx.win:local_buffer("i64"):fill(-1)
    ctx.mine = rma.buffer(1, "i64"):set(0, 500 + rma.rank)
    ctx.back = {}
    for t = 0, rma.size - 1 do ctx.back[t] = rma.buffer(1, "i64") end
  end,
  run = function(ctx)
    local me = rma.rank
    ctx.win:lock_all()
    for t = 0, rma.size - 1 do
      if t ~= me then ctx.win:put(ctx.mine, t, me) end
    end
    if rma.opt.flush == "flush_all" then
      ctx.win:flush_all()
    else
      for t = 0, rma.size - 1 do if t ~= me then ctx.win:flush(t) end end
    end
    for t = 0, rma.size - 1 do
      if t ~= me then ctx.win:get(ctx.back[t], t, me) end
    end
    ctx.win:unlock_all()
  end,
  check = function(ctx)
    local me = rma.rank
    local mem = ctx.win:local_buffer("i64")
    for r = 0, rma.size - 1 do
      if r ~= me then
        rma.expect_eq(mem:get(r), 500 + r, "slot of origin " .. r)
        rma.expect_eq(ctx.back[r]:get(0), 500 + me, "my put, read back from " .. r .. " after flush")
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local pairs = rma.size * (rma.size - 1)
    return { total = 4 * pairs, put = pairs, ack = pairs, get = pairs, get_resp = pairs }
  end,
}
