-- pscw_put_disjoint (race-free): Ranks 1 and 2 start an access epoch to rank 0 and put to different bytes.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:post({1, 2})
      ctx.win:wait()
    else
      ctx.win:start({0})
      ctx.win:put(ctx.v, 0, 8 * rma.rank)
      ctx.win:complete()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
