-- lock_all_get_accumulate_no_op_vs_get (race-free): Rank 1 reads a word of rank 0 with
-- get_accumulate(no_op) while rank 2 gets it, in concurrent lock_all epochs: no_op only
-- reads, and two reads never conflict.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.res = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    ctx.win:lock_all()
    if rma.rank == 1 then ctx.win:get_accumulate(nil, ctx.res, 0, 0, "no_op") end
    if rma.rank == 2 then ctx.win:get(ctx.res, 0, 0) end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
