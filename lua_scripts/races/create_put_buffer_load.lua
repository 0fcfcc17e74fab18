-- create_put_buffer_load (racy): A window created over a script buffer: rank 1 puts into rank 0's window
-- while rank 0 reads that buffer in the same fence epoch.
return {
  ranks = 2,
  expect = "race",
  setup = function(ctx)
    ctx.mem = rma.buffer(8, "i64")
    ctx.win = rma.window{ flavor = "create", memory = ctx.mem }
    ctx.v = rma.buffer(1, "i64"):fill(1)
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank == 1 then ctx.win:put(ctx.v, 0, 0) end
    if rma.rank == 0 then local _ = ctx.mem:get(0) end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
