-- fence_noput_false (racy): Rank 0's fence says noput, yet rank 1 puts into rank 0's window in the epoch
-- it opens: a false assert.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    ctx.win:fence("noput")
    if rma.rank == 1 then ctx.win:put(ctx.v, 0, 8) end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
