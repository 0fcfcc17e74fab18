-- fence_get_accumulate_no_op_vs_load (race-free): Rank 1 reads a word of rank 0 with
-- get_accumulate(no_op) while rank 0 loads it, in one fence epoch: no_op only reads, and a
-- load beside a remote read is no conflict.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.win:local_buffer("i64"):set(0, 7)
    ctx.res = rma.buffer(1, "i64")
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank == 0 then ctx.seen = ctx.win:local_buffer("i64"):get(0) end
    if rma.rank == 1 then ctx.win:get_accumulate(nil, ctx.res, 0, 0, "no_op") end
    ctx.win:fence()
  end,
  check = function(ctx)
    if rma.rank == 0 then rma.expect_eq(ctx.seen, 7, "the load") end
    if rma.rank == 1 then rma.expect_eq(ctx.res:get(0), 7, "the no_op read") end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
