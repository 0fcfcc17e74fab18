-- pscw_local_load_after_wait (race-free): Rank 0 reads the bytes rank 1 put after wait: ordered by complete → wait.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(3)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:post({1})
      ctx.win:wait()
      rma.expect_eq(ctx.win:local_buffer("i64"):get(0), 3, "put arrived by wait")
    else
      ctx.win:start({0})
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:complete()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
