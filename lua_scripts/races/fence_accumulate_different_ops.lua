-- fence_accumulate_different_ops (racy): Rank 1 accumulates with sum, rank 2 with max, into the same bytes in one
-- fence epoch: different ops (accumulate_ops = same_op_no_op) conflict.
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank == 1 then ctx.win:accumulate(ctx.v, 0, 0, "sum") end
    if rma.rank == 2 then ctx.win:accumulate(ctx.v, 0, 0, "max") end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
