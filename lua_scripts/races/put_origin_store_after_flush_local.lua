-- put_origin_store_after_flush_local (race-free): the twin of put_origin_store_before_flush:
-- flush_local completes the put at the origin, after which its buffer may be reused.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:put(ctx.v, 1, 0)
      ctx.win:flush_local(1)
      ctx.v:set(0, 2)
      ctx.win:put(ctx.v, 1, 8)
      ctx.win:unlock(1)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
