-- fence_nostore_after_self_lock (race-free): rank 0 stores into its window inside a lock on
-- itself; the unlock synchronizes its window, so the later fence's nostore is true.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(0, "exclusive")
      ctx.win:local_buffer("i64"):set(0, 7)
      ctx.win:unlock(0)
    end
    ctx.win:fence("nostore")
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
