-- pscw_nocheck_on_start_only (racy): the post is ordered before the start (a barrier), but
-- only the start says nocheck: MPI allows nocheck on a post if and only if every matching
-- start gives it, and this pairing is reported as a broken promise too.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      rma.barrier()
      ctx.win:start({1}, "nocheck")
      ctx.win:put(ctx.v, 1, 0)
      ctx.win:complete()
    else
      ctx.win:post({0})
      rma.barrier()
      ctx.win:wait()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
