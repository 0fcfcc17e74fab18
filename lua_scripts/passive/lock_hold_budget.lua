-- The hold budget and its fallback: three origins each put 64 KiB into rank 0 under exclusive
-- locks while the window's hold_budget is 16 KiB, then a small two-put epoch. Under the fewest
-- protocol the big epoch's eager data does not fit what the target may hold for an origin
-- ahead of the grant, so it asks first (lock, grant, as under ch3); the small one fits and
-- its first put carries the request. The counters say which happened (measured, per origin,
-- reported as metrics); the message counts check it exactly (one lock request and grant per
-- origin under fewest, two under ch3), and every byte must land.
local counts = require("counts")  -- docs/message-counts.md

local BUDGET = 16 * 1024
local PUT = 8 * 1024     -- eager at the default limit; eight of them make 64 KiB
local PUTS = 8
local REGION = PUT * PUTS

local function epoch_counts()
  local p = rma.counters().protocol
  return p.held_epochs or 0, p.asked_epochs or 0
end

return {
  ranks = 4,
  setup = function(ctx)
    ctx.win = rma.window{ size = REGION * rma.size,
                          info = { hold_budget = tostring(BUDGET) } }
    ctx.buf = rma.buffer(REGION, "u8"):iota(rma.rank * 7)
    ctx.small = rma.buffer(2 * 1024, "u8"):fill(rma.rank + 100)
  end,
  run = function(ctx)
    if rma.rank == 0 then return end
    local held0, asked0 = epoch_counts()
    local base = rma.rank * REGION
    ctx.win:lock(0, "exclusive")
    for i = 0, PUTS - 1 do ctx.win:put(ctx.buf:sub(i * PUT, PUT), 0, base + i * PUT) end
    ctx.win:unlock(0)
    ctx.win:lock(0, "exclusive")
    ctx.win:put(ctx.small:sub(0, 1024), 0, 0 + (rma.rank - 1) * 2048)
    ctx.win:put(ctx.small:sub(1024, 1024), 0, 1024 + (rma.rank - 1) * 2048)
    ctx.win:unlock(0)
    local held1, asked1 = epoch_counts()
    rma.metric("held_epochs", held1 - held0)
    rma.metric("asked_epochs", asked1 - asked0)
  end,
  check = function(ctx)
    if rma.rank ~= 0 then return end
    local mem = ctx.win:local_buffer()
    for r = 1, rma.size - 1 do
      rma.expect_eq(mem:sub(r * REGION, REGION):checksum(),
                    rma.buffer(REGION, "u8"):iota(r * 7):checksum(), "64 KiB from rank " .. r)
      rma.expect_eq(mem:sub((r - 1) * 2048, 2048):checksum(),
                    rma.buffer(2048, "u8"):fill(r + 100):checksum(), "small epoch of rank " .. r)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n = rma.size - 1
    local by = { put = (PUTS + 2) * n, ack = 2 * n }
    -- The 64 KiB epoch exceeds the budget and asks under both protocols; the small one fits.
    counts.add(by, counts.lock_request(n, false))
    counts.add(by, counts.lock_request(n))
    return counts.total(by)
  end,
}
