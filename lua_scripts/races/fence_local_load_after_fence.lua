-- fence_local_load_after_fence (race-free): Rank 1 puts to rank 0; rank 0 reads the bytes after the fence that
-- completes the put: ordered.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(9)
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank == 1 then ctx.win:put(ctx.v, 0, 0) end
    ctx.win:fence()
    if rma.rank == 0 then rma.expect_eq(ctx.win:local_buffer("i64"):get(0), 9, "put arrived") end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
