-- fence_put_put_same (racy): Ranks 1 and 2 put to the same bytes of rank 0 in one fence epoch: two
-- conflicting writes nothing orders (the result is either value, or neither).
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank > 0 then ctx.win:put(ctx.v, 0, 0) end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
