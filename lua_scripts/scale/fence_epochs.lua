-- fence epochs at scale: the fence ring (lua_scripts/fence/fence_ring.lua) with its time per
-- epoch reported, for docs/scaling.md's growth table. Every rank puts one value into its
-- right neighbour's window per epoch and checks its left neighbour's; rank 0 reports the
-- mean time of one epoch (put + fence) over `epochs`, measured between two barriers so that
-- the slowest rank is included. A measurement, not a test of time: nothing here fails on
-- being slow.
--   rmabench run lua_scripts/scale/fence_epochs.lua -n 1024 --path am -o epochs=5
return {
  ranks = 4,
  options = {
    epochs = {"fence epochs timed", 5},
    hold_ms = {"milliseconds rank 0 waits after the timed part (the others in a barrier), so that a "
            .. "sampler can read the ranks' memory", 0},
  },
  setup = function(ctx)
    ctx.win = rma.window{ size = 16 }
    ctx.val = rma.buffer(1, "i64")
    ctx.win:fence("noprecede")
  end,
  run = function(ctx)
    local right, left = (rma.rank + 1) % rma.size, (rma.rank - 1) % rma.size
    rma.barrier()
    local t0 = rma.now()
    for e = 1, rma.opt.epochs do
      ctx.val:set(0, rma.rank * 1000 + e)
      ctx.win:put(ctx.val, right, 8 * (e % 2))
      ctx.win:fence()
      rma.expect_eq(ctx.win:local_buffer("i64"):get(e % 2), left * 1000 + e,
                    "left neighbour's value after epoch " .. e)
    end
    rma.barrier()
    if rma.rank == 0 then
      rma.metric("fence_epoch_us", (rma.now() - t0) * 1e6 / rma.opt.epochs)
      local until_ = rma.now() + rma.opt.hold_ms / 1000
      while rma.now() < until_ do end
    end
    rma.barrier()
  end,
  teardown = function(ctx)
    ctx.win:fence("nosucceed")
    ctx.win:free()
  end,
}
