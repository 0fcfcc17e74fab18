-- The hold budget for PSCW: rank 0 exposes its window to three origins twice; in the first
-- epoch each origin puts 64 KiB (eight eager puts) while the window's hold_budget is 16 KiB,
-- in the second two 1 KiB puts. Under the fewest protocol an origin sends its ops ahead of
-- the target's post only when they fit what the target may hold: the first epoch asks for
-- the post (the origin's post request, the target's post), the second goes ahead. The
-- counters say which happened (measured, per origin, reported as metrics); the message
-- counts check it exactly; every byte must land.
local counts = require("counts")  -- docs/message-counts.md

local BUDGET = 16 * 1024
local PUT = 8 * 1024
local PUTS = 8
local REGION = PUT * PUTS

return {
  ranks = 4,
  setup = function(ctx)
    ctx.win = rma.window{ size = REGION * rma.size, info = { hold_budget = tostring(BUDGET) } }
    ctx.buf = rma.buffer(REGION, "u8"):iota(rma.rank * 5)
    ctx.small = rma.buffer(2048, "u8"):fill(rma.rank + 50)
    ctx.origins = {}
    for r = 1, rma.size - 1 do ctx.origins[#ctx.origins + 1] = r end
  end,
  run = function(ctx)
    if rma.rank == 0 then
      for _ = 1, 2 do
        ctx.win:post(ctx.origins)
        ctx.win:wait()
      end
      return
    end
    local p0 = rma.counters().protocol
    ctx.win:start({0})
    for i = 0, PUTS - 1 do ctx.win:put(ctx.buf:sub(i * PUT, PUT), 0, rma.rank * REGION + i * PUT) end
    ctx.win:complete()
    ctx.win:start({0})
    ctx.win:put(ctx.small:sub(0, 1024), 0, (rma.rank - 1) * 2048)
    ctx.win:put(ctx.small:sub(1024, 1024), 0, (rma.rank - 1) * 2048 + 1024)
    ctx.win:complete()
    local p1 = rma.counters().protocol
    local held = (p1.held_epochs or 0) - (p0.held_epochs or 0)
    local asked = (p1.asked_epochs or 0) - (p0.asked_epochs or 0)
    rma.metric("held_epochs", held)
    rma.metric("asked_epochs", asked)
  end,
  check = function(ctx)
    if rma.rank ~= 0 then return end
    local mem = ctx.win:local_buffer()
    for r = 1, rma.size - 1 do
      rma.expect_eq(mem:sub(r * REGION, REGION):checksum(),
                    rma.buffer(REGION, "u8"):iota(r * 5):checksum(), "64 KiB from rank " .. r)
      rma.expect_eq(mem:sub((r - 1) * 2048, 2048):checksum(),
                    rma.buffer(2048, "u8"):fill(r + 50):checksum(), "small epoch of rank " .. r)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n = rma.size - 1
    local by = { put = (PUTS + 2) * n }
    counts.add(by, counts.post(n, false))  -- 64 KiB: over the budget
    counts.add(by, counts.post(n))         -- 2 KiB: within it
    return counts.total(by)
  end,
}
