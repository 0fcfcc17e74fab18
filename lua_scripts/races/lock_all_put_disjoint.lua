-- lock_all_put_disjoint (race-free): Inside lock_all, ranks 1 and 2 put to different bytes of rank 0.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
  end,
  run = function(ctx)
    ctx.win:lock_all()
    if rma.rank > 0 then ctx.win:put(ctx.v, 0, 8 * rma.rank) end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
