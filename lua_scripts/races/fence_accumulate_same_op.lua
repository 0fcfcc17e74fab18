-- fence_accumulate_same_op (race-free): Ranks 1 and 2 accumulate with sum into the same bytes of rank 0 in one
-- fence epoch: concurrent accumulates with the same op are allowed.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank > 0 then ctx.win:accumulate(ctx.v, 0, 0, "sum") end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
