-- fence ring: every rank puts a value into its right neighbour's window between two
-- fences, over several epochs. Epochs alternate between two slots: after fence e a rank
-- reads slot e % 2 while its neighbour, already in epoch e+1, writes the other one — reading
-- a location a remote put targets in the same epoch would be a conflicting access (a direct
-- path lands the next epoch's put at once). Messages per epoch: one put per rank, plus the closing
-- fence's count exchange, a reduce-scatter by recursive halving: 2r + p·log2(p) messages
-- for n = p + r ranks, p the largest power of two <= n (docs/message-counts.md).
local function exchange(n)
  local p, steps = 1, 0
  while p * 2 <= n do p = p * 2; steps = steps + 1 end
  return 2 * (n - p) + p * steps
end

return {
  name = "fence-ring",
  ranks = 4,
  options = { epochs = {"fence epochs in run", 1} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 16 }
    ctx.val = rma.buffer(1, "i64")
    ctx.win:fence()
  end,
  run = function(ctx)
    local right = (rma.rank + 1) % rma.size
    for e = 1, rma.opt.epochs do
      ctx.val:set(0, rma.rank * 1000 + e)
      ctx.win:put(ctx.val, right, 8 * (e % 2))
      ctx.win:fence()
      local left = (rma.rank - 1) % rma.size
      rma.expect_eq(ctx.win:local_buffer("i64"):get(e % 2), left * 1000 + e,
                    "left neighbour's value after epoch " .. e)
    end
  end,
  teardown = function(ctx)
    ctx.win:fence("nosucceed")
    ctx.win:free()
  end,
  messages = function()
    if rma.size == 1 then return { total = 0 } end
    local n = rma.opt.epochs
    return { total = n * (rma.size + exchange(rma.size)), put = n * rma.size,
             fence_count = n * exchange(rma.size) }
  end,
}
