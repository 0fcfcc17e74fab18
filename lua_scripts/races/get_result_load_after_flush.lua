-- get_result_load_after_flush (race-free): the twin of get_result_load_before_unlock: a
-- flush completes the get, and its result may be read inside the same epoch.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.got = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "shared")
      ctx.win:get(ctx.got, 1, 0)
      ctx.win:flush(1)
      rma.expect_eq(ctx.got:get(0), 0, "window starts zeroed")
      ctx.win:unlock(1)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
