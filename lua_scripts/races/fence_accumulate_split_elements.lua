-- fence_accumulate_split_elements (racy): Ranks 1 and 2 accumulate one i64 with sum into rank
-- 0 in one fence epoch, rank 1 at byte 0 and rank 2 at byte 8 then byte 4: the last one's
-- element straddles both of the others', so it is atomic with neither (the first two, a
-- whole element apart, would be fine).
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
    if rma.rank == 2 then
      ctx.win:accumulate(ctx.v, 0, 8, "sum")
      ctx.win:accumulate(ctx.v, 0, 4, "sum")
    end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
