-- rget_result_after_wait (race-free): the twin of rget_result_before_wait: the request's wait
-- completes the rget at the origin, then its result may be read, inside the epoch.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.got = rma.buffer(2, "i64")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock_all()
      local req = ctx.win:rget(ctx.got, 1, 0)
      req:wait()
      local _ = ctx.got:checksum()
      ctx.win:unlock_all()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
