-- Exclusive-lock contention: every rank takes an exclusive lock on rank 0 `iterations`
-- times and does a non-atomic get, +1, put of one counter inside it. Only mutual exclusion
-- by the target's lock manager makes the final value exactly size * iterations.
return {
  ranks = 4,
  options = { iterations = {"lock epochs per rank", 200} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
    -- MPI_Win_allocate's memory starts undefined (MPI-3.1 §11.2.2): the count starts at 0.
    ctx.win:local_buffer("i64"):fill(0)
    ctx.val = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    for _ = 1, rma.opt.iterations do
      ctx.win:lock(0, "exclusive")
      ctx.win:get(ctx.val, 0, 0)
      ctx.win:flush(0)
      ctx.val:set(0, ctx.val:get(0) + 1)
      ctx.win:put(ctx.val, 0, 0)
      ctx.win:unlock(0)
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then
      rma.expect_eq(ctx.win:local_buffer("i64"):get(0), rma.size * rma.opt.iterations,
                    "every increment kept")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
