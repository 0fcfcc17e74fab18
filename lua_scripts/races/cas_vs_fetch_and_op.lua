-- cas_vs_fetch_and_op (racy): Rank 1 compare_and_swaps a word of rank 0 while rank 2 fetch_and_op(sum)s
-- it: two atomics with different ops on the same bytes (accumulate_ops same_op_no_op).
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
  end,
  run = function(ctx)
    ctx.win:lock_all()
    if rma.rank == 1 then local _ = ctx.win:compare_and_swap(0, 1, 0, 0, "i64") end
    if rma.rank == 2 then local _ = ctx.win:fetch_and_op(1, 0, 0, "sum", "i64") end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
