-- An empty PSCW epoch whose lone done does not fit the hold budget: the window's hold_budget
-- is 32 bytes, below the done's 48-byte header, which a target not yet posted would hold.
-- Under the fewest protocol the origin therefore asks for the post first (post request,
-- post, done: an asked epoch) instead of sending the done ahead; ch3 always waits for the
-- post (post, done). The counters say which happened.
local counts = require("counts")  -- docs/message-counts.md

local BUDGET = 32

return {
  ranks = 2,
  setup = function(ctx) ctx.win = rma.window{ size = 8, info = { hold_budget = tostring(BUDGET) } } end,
  run = function(ctx)
    if rma.rank == 0 then
      local p0 = rma.counters().protocol
      ctx.win:start({1})
      ctx.win:complete()
      local p1 = rma.counters().protocol
      local held = (p1.held_epochs or 0) - (p0.held_epochs or 0)
      local asked = (p1.asked_epochs or 0) - (p0.asked_epochs or 0)
      rma.metric("held_epochs", held)
      rma.metric("asked_epochs", asked)
      if counts.protocol() == "fewest" then
        rma.expect_eq(asked, 1, "asked epochs")
        rma.expect_eq(held, 0, "held epochs")
      end
    else
      ctx.win:post({0})
      ctx.win:wait()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    return counts.total(counts.add({ done = 1 }, counts.post(1, false)))
  end,
}
