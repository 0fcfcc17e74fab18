-- cas_mutex_counter (race-free): a compare_and_swap spin lock on rank 0's word 0 guards a get,
-- +1, put of a counter in word 1, all in one lock_all epoch; each rank flushes its put
-- before the fetch_and_op that releases the word. The values the atomics return order the
-- critical sections: the checker sees them exclude each other, as exclusive locks would.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 16 }
    ctx.val = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    local me = rma.rank + 1
    ctx.win:lock_all()
    for _ = 1, 5 do
      while ctx.win:compare_and_swap(0, me, 0, 0, "i64") ~= 0 do end
      ctx.win:get(ctx.val, 0, 8)
      ctx.win:flush(0)
      ctx.val:set(0, ctx.val:get(0) + 1)
      ctx.win:put(ctx.val, 0, 8)
      ctx.win:flush(0)
      ctx.win:fetch_and_op(0, 0, 0, "replace", "i64")
    end
    ctx.win:unlock_all()
  end,
  check = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(0, "shared")
      rma.expect_eq(ctx.win:local_buffer("i64"):get(1), 5 * rma.size, "no update lost")
      ctx.win:unlock(0)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
