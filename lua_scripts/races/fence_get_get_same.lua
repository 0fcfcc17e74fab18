-- fence_get_get_same (race-free): Ranks 1 and 2 get the same bytes of rank 0 in one fence epoch: two reads
-- never conflict.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64")
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank > 0 then ctx.win:get(ctx.v, 0, 0) end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
