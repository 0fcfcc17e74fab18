-- cas_mutex_put_unflushed (racy): the twin of cas_mutex_counter without the flush after the
-- put: the release may overtake the put, so the next holder's get races it — the lock word
-- orders only what completed before the release.
return {
  ranks = 3,
  expect = "race",
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
      ctx.win:flush_local(0)  -- the buffer may be reused, but the put is not done at rank 0
      ctx.win:fetch_and_op(0, 0, 0, "replace", "i64")
    end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
