-- Fences with nothing between them: the opening fence is free, a fence with noprecede closes
-- nothing, and a closing fence still exchanges counts (a rank cannot know nobody sent it
-- anything without asking): two messages for two ranks per closing fence.
local exchange = require("counts").fence_exchange  -- E(n), docs/message-counts.md

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
    local e = exchange(rma.size)
    return { total = 2 * e, fence_count = 2 * e }
  end,
}
