-- fence_put_put_disjoint (race-free): Ranks 1 and 2 put to different bytes of rank 0 in one fence epoch: no
-- conflict.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank > 0 then ctx.win:put(ctx.v, 0, 8 * rma.rank) end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
