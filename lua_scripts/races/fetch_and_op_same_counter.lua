-- fetch_and_op_same_counter (race-free): Every rank increments one counter on rank 0 with fetch_and_op(sum) inside
-- lock_all: atomics with the same op may be concurrent.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
  end,
  run = function(ctx)
    ctx.win:lock_all()
    local _ = ctx.win:fetch_and_op(1, 0, 0, "sum", "i64")
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
