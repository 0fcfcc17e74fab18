-- fence_accumulate_different_types (racy): Ranks 1 and 2 accumulate with sum into the same 8
-- bytes of rank 0 in one fence epoch, rank 1 as i32, rank 2 as f32: accumulates are atomic
-- per element only between ones of the same basic type, so these conflict.
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(2, rma.rank == 1 and "i32" or "f32"):fill(1)
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank > 0 then ctx.win:accumulate(ctx.v, 0, 0, "sum") end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
