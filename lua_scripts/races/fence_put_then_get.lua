-- fence_put_then_get (race-free): Rank 1 puts to rank 0 in one fence epoch, rank 2 gets the same bytes in the
-- next: the fence between them orders the two.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(5)
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank == 1 then ctx.win:put(ctx.v, 0, 0) end
    ctx.win:fence()
    if rma.rank == 2 then ctx.win:get(ctx.v, 0, 0) end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
