-- A hold budget below one op's size: rank 1 puts 1 KiB (eager) into rank 0 under an exclusive
-- lock while the window's hold_budget is 32 bytes. Under the fewest protocol the budget is a
-- bound on what the target holds, so even a single op that does not fit asks first (lock,
-- grant, put, ack: an asked epoch); ch3 sends a single eager op with the lock request
-- whatever the budget (put, ack). The counters say which happened; the data must land.
local counts = require("counts")  -- docs/message-counts.md

local BUDGET = 32
local SIZE = 1024

local function epochs()
  local p = rma.counters().protocol
  return p.held_epochs or 0, p.asked_epochs or 0
end

return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = SIZE, info = { hold_budget = tostring(BUDGET) } }
    ctx.buf = rma.buffer(SIZE, "u8"):iota(3)
  end,
  run = function(ctx)
    if rma.rank ~= 1 then return end
    local held0, asked0 = epochs()
    ctx.win:lock(0, "exclusive")
    ctx.win:put(ctx.buf, 0, 0)
    ctx.win:unlock(0)
    local held1, asked1 = epochs()
    rma.metric("held_epochs", held1 - held0)
    rma.metric("asked_epochs", asked1 - asked0)
    local fewest = counts.protocol() == "fewest"
    rma.expect_eq(asked1 - asked0, fewest and 1 or 0, "asked epochs")
    rma.expect_eq(held1 - held0, fewest and 0 or 1, "held epochs")
  end,
  check = function(ctx)
    if rma.rank ~= 0 then return end
    rma.expect_eq(ctx.win:local_buffer():sub(0, SIZE):checksum(),
                  rma.buffer(SIZE, "u8"):iota(3):checksum(), "1 KiB from rank 1")
  end,
  teardown = function(ctx) ctx.win:free() end,
  -- ch3: the single eager op carries the request; fewest: it does not fit, so it asks.
  messages = function()
    local by = { put = 1, ack = 1 }
    if counts.protocol() == "fewest" then counts.add(by, counts.lock_request(1, false)) end
    return counts.total(by)
  end,
}
