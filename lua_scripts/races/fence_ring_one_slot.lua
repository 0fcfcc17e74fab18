-- fence_ring_one_slot (racy): The bug fence/fence_ring.lua's header tells of: every rank puts into one
-- slot of its right neighbour, fence, then reads that slot — while its left neighbour,
-- already past the fence, puts the next epoch's value into it. The read and the next put
-- are in the same fence epoch. On the am path the put happens to arrive after the read
-- (it waits for the next fence); on direct it lands at once.
return {
  ranks = 4,
  expect = "race",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.val = rma.buffer(1, "i64")
    ctx.win:fence()
  end,
  run = function(ctx)
    local right = (rma.rank + 1) % rma.size
    for e = 1, 2 do
      ctx.val:set(0, rma.rank * 1000 + e)
      ctx.win:put(ctx.val, right, 0)
      ctx.win:fence()
      local _ = ctx.win:local_buffer("i64"):get(0)
    end
    ctx.win:fence()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
