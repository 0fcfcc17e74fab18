-- A compare_and_swap spin lock at rank 0 guards a non-atomic get, +1, put of a counter (also
-- at rank 0), from every rank, all inside one lock_all epoch. The lock word is taken with
-- compare_and_swap(0 -> rank+1) and released with fetch_and_op(replace, 0); flush orders the
-- get before the put and the put before the release. Nothing may be lost: the counter ends
-- at size * iterations. How many compare_and_swap attempts fail depends on timing, so the
-- message count is reported but not declared.
return {
  ranks = 4,
  messages = "varies",
  options = { iterations = {"critical sections per rank", 100} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 16 }  -- [0] lock word, [1] counter (i64)
    -- MPI_Win_allocate's memory starts undefined (MPI-3.1 §11.2.2): a lock word left as
    -- allocated is never 0 to a compare_and_swap on Open MPI's osc/pt2pt (heap memory).
    ctx.win:local_buffer("i64"):fill(0)
    ctx.val = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    local me = rma.rank + 1
    ctx.win:lock_all()
    for _ = 1, rma.opt.iterations do
      while ctx.win:compare_and_swap(0, me, 0, 0, "i64") ~= 0 do end
      ctx.win:get(ctx.val, 0, 8)
      ctx.win:flush(0)
      ctx.val:set(0, ctx.val:get(0) + 1)
      ctx.win:put(ctx.val, 0, 8)
      ctx.win:flush(0)
      local was = ctx.win:fetch_and_op(0, 0, 0, "replace", "i64")
      rma.expect_eq(was, me, "the lock word held my id while I was inside")
    end
    ctx.win:unlock_all()
  end,
  check = function(ctx)
    if rma.rank == 0 then
      local mem = ctx.win:local_buffer("i64")
      rma.expect_eq(mem:get(1), rma.size * rma.opt.iterations, "no update lost")
      rma.expect_eq(mem:get(0), 0, "lock word released")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
