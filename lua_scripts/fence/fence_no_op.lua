-- Fences with nothing between them: the opening fence is free, a fence with noprecede closes
-- nothing, and a closing fence still costs its exchange (a rank cannot know nobody sent it
-- anything without hearing from every other rank): two messages for two ranks per closing
-- fence under both protocols; for n ranks 2(n − 1) under fewest (the minimum), E(n) under
-- ch3 (docs/message-counts.md).
local counts = require("counts")  -- the fence's exchange, docs/message-counts.md

return {
  ranks = 2,
  options = { exchange = {"the window's fence_exchange (fewest): auto | messages | rounds", "auto"} },
  setup = function(ctx) ctx.win = rma.window{ size = 8, info = { fence_exchange = rma.opt.exchange } } end,
  run = function(ctx)
    ctx.win:fence("noprecede")   -- opens, closes nothing: 0
    ctx.win:fence()              -- closes an empty epoch
    ctx.win:fence("nosucceed")   -- closes another, and opens nothing
    ctx.win:fence("noprecede")   -- nothing open: 0
    ctx.win:fence({"noprecede", "nosucceed"})
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local k = counts.fence({}, rma.opt.exchange).fence_count or 0
    return { total = 2 * k, fence_count = 2 * k }
  end,
}
