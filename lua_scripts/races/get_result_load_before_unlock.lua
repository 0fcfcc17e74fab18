-- get_result_load_before_unlock (racy): rank 0 gets from rank 1 and reads the result buffer
-- inside the epoch, before anything completes the get: the value may not be there yet (the
-- am path moves gets last and fills the buffer at the unlock).
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.got = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "shared")
      ctx.win:get(ctx.got, 1, 0)
      local _ = ctx.got:get(0)  -- the result buffer, before the get completed
      ctx.win:unlock(1)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
