-- lock and unlock with no op between them cost nothing: the lock request is only ever sent
-- with (or for) an op.
return {
  ranks = 2,
  setup = function(ctx) ctx.win = rma.window{ size = 8 } end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:unlock(1)
      ctx.win:lock(1, "shared")
      ctx.win:flush(1)
      ctx.win:unlock(1)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 0 },
}
