-- Every rank keeps opening and closing epochs on its neighbours (lock-put-unlock to the
-- right, then a fence) for a long time: a target for a SIGKILL from outside in the middle of
-- an epoch (the test finds a rank's pid and kills it). The survivors must end with an error
-- naming the dead rank, or be stopped by the launcher, within the case timeout.
return {
  ranks = 2,
  options = { seconds = {"how long to keep going", 60} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 * rma.size }
    ctx.buf = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    local right = (rma.rank + 1) % rma.size
    local t0 = rma.now()
    while rma.now() - t0 < rma.opt.seconds do
      ctx.win:lock(right, "exclusive")
      ctx.win:put(ctx.buf, right, rma.rank)
      ctx.win:unlock(right)
      ctx.win:fence()
      ctx.win:put(ctx.buf, right, rma.rank)
      ctx.win:fence()
    end
  end,
}
