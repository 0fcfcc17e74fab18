-- lock_exclusive_puts (race-free): Ranks 1 and 2 put to the same bytes of rank 0, each inside an exclusive
-- lock: the locks exclude each other, so the puts are ordered (in some order).
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
  end,
  run = function(ctx)
    if rma.rank > 0 then
      ctx.win:lock(0, "exclusive")
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:unlock(0)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
