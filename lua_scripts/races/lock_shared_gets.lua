-- lock_shared_gets (race-free): Ranks 1 and 2 get the same bytes of rank 0 under shared locks: reads only.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    if rma.rank > 0 then
      ctx.win:lock(0, "shared")
      ctx.win:get(ctx.v, 0, 0)
      ctx.win:unlock(0)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
