-- A misspelt op name: the error names the line and the nearest op (issue 40).
return {
  ranks = 2,
  setup = function(ctx) ctx.win = rma.window{ size = 8 } end,
  run = function(ctx)
    ctx.win:lock(1, "shared")
    ctx.win:fetch_and_op(1, 0, 0, "summ", "i64")
    ctx.win:unlock(1)
  end,
  teardown = function(ctx) ctx.win:free() end,
}
