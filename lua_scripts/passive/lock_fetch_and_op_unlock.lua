-- lock, fetch_and_op into a result buffer, unlock: the deferred form of fetch_and_op is an
-- ordinary singleton op, so the lock travels with it and its reply is the ack. Two messages.
-- (The value-returning form completes the op at once and costs one more: an unlock packet.)
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
    ctx.win:local_buffer("i64"):set(0, 40)
    ctx.old = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:fetch_and_op(2, 1, 0, "sum", "i64", ctx.old)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then rma.expect_eq(ctx.old:get(0), 40, "old value")
    else rma.expect_eq(ctx.win:local_buffer("i64"):get(0), rma.oracle("sum", "i64", 40, 2), "new value") end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 2, fetch_and_op = 1, fetch_and_op_resp = 1 },
}
