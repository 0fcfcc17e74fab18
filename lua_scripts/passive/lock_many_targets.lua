-- Lock over several targets at once: every rank opens a lock epoch on every rank (itself
-- included) before it unlocks any of them, puts its id into its own slot of each target's
-- window, then unlocks them all in the same order. MPI allows one origin to hold locks on
-- several targets in one window at a time (as long as it never locks one target twice);
-- with exclusive locks every origin locks in the same order 0..n-1, which is what keeps a
-- program whose lock call blocks free of deadlock. Each target must end up with one value
-- from every origin. On the am path every remote epoch is a singleton put that carries its
-- lock request and unlock (2 messages); the epoch on this rank's own window costs none.
return {
  ranks = 4,
  options = { lock = {"lock type: shared or exclusive", "shared"} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 * rma.size, disp_unit = 8 }
    ctx.win:local_buffer("i64"):fill(-1)
    ctx.mine = rma.buffer(1, "i64"):set(0, 1000 + rma.rank)
  end,
  run = function(ctx)
    for t = 0, rma.size - 1 do ctx.win:lock(t, rma.opt.lock) end
    for t = 0, rma.size - 1 do ctx.win:put(ctx.mine, t, rma.rank) end
    for t = 0, rma.size - 1 do ctx.win:unlock(t) end
  end,
  check = function(ctx)
    local mem = ctx.win:local_buffer("i64")
    for r = 0, rma.size - 1 do
      rma.expect_eq(mem:get(r), 1000 + r, "slot of origin " .. r)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local pairs = rma.size * (rma.size - 1)
    return { total = 2 * pairs, put = pairs, ack = pairs }
  end,
}
