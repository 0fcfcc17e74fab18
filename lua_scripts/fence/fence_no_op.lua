-- Fences with nothing between them: the opening fence is free, a fence with noprecede closes
-- nothing, and a closing fence still exchanges counts (a rank cannot know nobody sent it
-- anything without asking): two messages for two ranks per closing fence.
return {
  ranks = 2,
  setup = function(ctx) ctx.win = rma.window{ size = 8 } end,
  run = function(ctx)
    ctx.win:fence("noprecede")   -- opens, closes nothing: 0
    ctx.win:fence()              -- closes an empty epoch: E(n)
    ctx.win:fence("nosucceed")   -- closes another: E(n), and opens nothing
    ctx.win:fence("noprecede")   -- nothing open: 0
    ctx.win:fence({"noprecede", "nosucceed"})
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local p, steps = 1, 0
    while p * 2 <= rma.size do p = p * 2; steps = steps + 1 end
    local e = 2 * (rma.size - p) + p * steps
    return { total = 2 * e, fence_count = 2 * e }
  end,
}
