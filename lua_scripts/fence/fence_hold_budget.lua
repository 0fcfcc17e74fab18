-- The hold budget under fence, back to back: every rank puts 64 KiB (eight eager 8 KiB puts)
-- into its right neighbour, fence, then two 1 KiB puts, fence, `epochs` times, while the
-- window's hold_budget is 16 KiB. Under the fewest protocol a rank sends its ops at the
-- closing fence, ahead of knowing that the target has returned from the fence before (the
-- target holds them until it has); the 64 KiB epoch does not fit what a target may hold for
-- one origin, so it waits until the target is provably in the epoch (an `asked` epoch), the
-- small one goes at once (a `held` epoch) — except from rank 0 under the `messages` exchange,
-- which sends only once every rank is in the fence. The counters say which happened (checked, and
-- reported as metrics); the message counts check it exactly (under the `messages` exchange
-- the asking origin's contribution to rank 0 then goes alone: one message more; under
-- `rounds` an `enter` note per asking pair), and every byte must land in its epoch. ch3 sends
-- every op after its count exchange and counts no such epochs.
local counts = require("counts")  -- docs/message-counts.md

local BUDGET = 16 * 1024
local PUT = 8 * 1024     -- eager at the default limit; eight of them make 64 KiB
local PUTS = 8
local BIG = PUT * PUTS
local SMALL = 1024

local function epoch_counts()
  local p = rma.counters().protocol
  return p.held_epochs or 0, p.asked_epochs or 0
end

local function big(r, e) return rma.buffer(BIG, "u8"):iota(r * 7 + e) end
local function small(r, e) return rma.buffer(2 * SMALL, "u8"):fill((r * 3 + e) % 251) end

return {
  ranks = 4,
  options = {
    epochs = {"pairs of epochs (64 KiB, then 2 KiB) in run", 2},
    exchange = {"the window's fence_exchange (fewest): auto | messages | rounds", "auto"},
  },
  setup = function(ctx)
    if rma.size < 2 then rma.skip("needs a neighbour") end
    ctx.win = rma.window{ size = BIG + 2 * SMALL,
                          info = { hold_budget = tostring(BUDGET),
                                   fence_exchange = rma.opt.exchange } }
    ctx.win:fence("noprecede")
  end,
  run = function(ctx)
    local right, left = (rma.rank + 1) % rma.size, (rma.rank - 1) % rma.size
    local held0, asked0 = epoch_counts()
    for e = 1, rma.opt.epochs do
      local b, s = big(rma.rank, e), small(rma.rank, e)
      for i = 0, PUTS - 1 do ctx.win:put(b:sub(i * PUT, PUT), right, i * PUT) end
      ctx.win:fence()
      rma.expect_eq(ctx.win:local_buffer():sub(0, BIG):checksum(), big(left, e):checksum(),
                    "64 KiB from the left neighbour in epoch " .. e)
      ctx.win:put(s:sub(0, SMALL), right, BIG)
      ctx.win:put(s:sub(SMALL, SMALL), right, BIG + SMALL)
      ctx.win:fence()
      rma.expect_eq(ctx.win:local_buffer():sub(BIG, 2 * SMALL):checksum(),
                    small(left, e):checksum(), "2 KiB from the left neighbour in epoch " .. e)
    end
    local held1, asked1 = epoch_counts()
    rma.metric("held_epochs", held1 - held0)
    rma.metric("asked_epochs", asked1 - asked0)
    -- Under `messages` rank 0 sends only once every rank is in the fence: never ahead.
    local x = rma.opt.exchange
    local rounds = x == "rounds" or (x == "auto" and rma.size <= 2)
    local k = (counts.protocol() == "fewest" and (rounds or rma.rank ~= 0)) and rma.opt.epochs or 0
    rma.expect_eq(asked1 - asked0, k, "64 KiB epochs that waited (asked)")
    rma.expect_eq(held1 - held0, k, "small epochs that went ahead (held)")
  end,
  teardown = function(ctx)
    ctx.win:fence("nosucceed")
    ctx.win:free()
  end,
  messages = function()
    local n, ring = rma.size, counts.ring_pairs()
    local by = { put = rma.opt.epochs * (PUTS + 2) * n }
    for _ = 1, rma.opt.epochs do
      counts.add(by, counts.fence(ring, rma.opt.exchange, PUTS * (counts.HEADER + PUT)))
      counts.add(by, counts.fence(ring, rma.opt.exchange, 2 * (counts.HEADER + SMALL)))
    end
    return counts.total(by)
  end,
}
