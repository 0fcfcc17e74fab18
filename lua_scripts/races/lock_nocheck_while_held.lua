-- lock_nocheck_while_held (racy): rank 1 holds an exclusive lock on rank 0 (taken the usual
-- way) while rank 2 takes lock(0, "exclusive", "nocheck") with nothing ordering the two
-- epochs: the promise that no other rank holds a conflicting lock is broken.
return {
  ranks = 3,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(rma.rank)
  end,
  run = function(ctx)
    if rma.rank == 1 then
      ctx.win:lock(0, "exclusive")
      ctx.win:put(ctx.v, 0, 8)
      ctx.win:unlock(0)
    elseif rma.rank == 2 then
      ctx.win:lock(0, "exclusive", "nocheck")
      ctx.win:put(ctx.v, 0, 16)
      ctx.win:unlock(0)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
