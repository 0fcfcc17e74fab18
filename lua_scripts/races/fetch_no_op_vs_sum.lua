-- fetch_no_op_vs_sum (race-free): Rank 1 reads a counter with fetch_and_op(no_op) while rank 2 adds to it with
-- fetch_and_op(sum): no_op is compatible with every op.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
  end,
  run = function(ctx)
    ctx.win:lock_all()
    if rma.rank == 1 then local _ = ctx.win:fetch_and_op(nil, 0, 0, "no_op", "i64") end
    if rma.rank == 2 then local _ = ctx.win:fetch_and_op(1, 0, 0, "sum", "i64") end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
