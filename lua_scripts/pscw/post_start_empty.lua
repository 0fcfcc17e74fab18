-- post/start/complete/wait with no op: one zero-byte done from complete because no op could
-- carry it, and under ch3 post's message before it. ch3: two messages; fewest: one.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  setup = function(ctx) ctx.win = rma.window{ size = 8 } end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:start({1})
      ctx.win:complete()
    else
      ctx.win:post({0})
      ctx.win:wait()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function() return counts.with_epoch({ done = 1 }, "pscw", 1) end,
}
