-- expect_error must record a failure naming the class that was raised when it is not the one
-- expected (here RMA_SYNC from a put outside any epoch, while RMA_RANGE is expected).
return {
  ranks = 2,
  setup = function(ctx) ctx.win = rma.window{ size = 8 } end,
  run = function(ctx)
    if rma.rank == 0 then
      rma.expect_error("RMA_RANGE", function() ctx.win:put(rma.buffer(1), 1, 0) end)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
