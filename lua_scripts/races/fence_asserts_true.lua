-- fence_asserts_true (race-free): Fences with every assert that holds: noprecede on the opening fence, nostore
-- and noput where nobody stores or puts, nosucceed on the last; gets in between.
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.v = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    ctx.win:fence({"noprecede", "nostore", "noput"})
    ctx.win:get(ctx.v, (rma.rank + 1) % rma.size, 0)
    ctx.win:fence({"nostore", "noput", "nosucceed"})
  end,
  teardown = function(ctx) ctx.win:free() end,
}
