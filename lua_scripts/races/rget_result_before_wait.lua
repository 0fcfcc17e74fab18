-- rget_result_before_wait (racy): rank 0 reads the result buffer of an rget before waiting on
-- its request (and before any flush or unlock): the op is not complete at the origin.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.got = rma.buffer(2, "i64")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock_all()
      local req = ctx.win:rget(ctx.got, 1, 0)
      local _ = ctx.got:checksum()  -- the result buffer, before req:wait()
      req:wait()
      ctx.win:unlock_all()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
