-- lock_shared_accumulate (race-free): Ranks 1 and 2 accumulate with sum into the same bytes of rank 0 under shared
-- locks: same-op accumulates may be concurrent.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    if rma.rank > 0 then
      ctx.win:lock(0, "shared")
      ctx.win:accumulate(ctx.v, 0, 0, "sum")
      ctx.win:unlock(0)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
