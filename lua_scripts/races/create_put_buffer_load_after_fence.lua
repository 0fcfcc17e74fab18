-- create_put_buffer_load_after_fence (race-free): A window created over a script buffer: rank 0 reads the buffer only after
-- the fence that completes rank 1's put.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.mem = rma.buffer(8, "i64")
    ctx.win = rma.window{ flavor = "create", memory = ctx.mem }
    ctx.v = rma.buffer(1, "i64"):fill(1)
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank == 1 then ctx.win:put(ctx.v, 0, 0) end
    ctx.win:fence()
    if rma.rank == 0 then rma.expect_eq(ctx.mem:get(0), 1, "put arrived") end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
