-- lock_local_store_unlocked (racy): Rank 1 puts to rank 0 under an exclusive lock while rank 0 stores into the
-- same bytes of its window without taking the lock: nothing orders them.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    if rma.rank == 1 then
      ctx.win:lock(0, "exclusive")
      ctx.win:put(ctx.v, 0, 0)
      ctx.win:unlock(0)
    else
      ctx.win:local_buffer("i64"):set(0, 2)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
