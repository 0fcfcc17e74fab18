-- fence ring: every rank puts a value into its right neighbour's window between two
-- fences, over several epochs. Epochs alternate between two slots: after fence e a rank
-- reads slot e % 2 while its neighbour, already in epoch e+1, writes the other one — reading
-- a location a remote put targets in the same epoch would be a conflicting access (a direct
-- path lands the next epoch's put at once). Messages per epoch: one put per rank, plus the
-- closing fence's exchange (docs/message-counts.md): under ch3 a reduce-scatter by recursive
-- halving ahead of the puts, 2r + p·log2(p) messages for n = p + r ranks, p the largest power
-- of two <= n (12 in all for 4 ranks); under fewest the counts ride on the puts — by default
-- 2(n − 1) notes through rank 0, two of which ride on rank n−1's put to rank 0 and rank 0's
-- put to rank 1 (8 in all for 4 ranks), or with `exchange=rounds` one mark per ordered pair,
-- the puts among them (n(n − 1)). Back to back, a rank may get its neighbour's next put while
-- it is still in the fence before: the target holds it until it returns from that fence.
--
-- Two ways to write the fences, both MPI: `paired=false` (default) chains them — one fence
-- closes epoch e and opens e+1 — and `paired=true` brackets each epoch with its own
-- fence(noprecede) ... fence(nosucceed), leaving no epoch open between them (the reads then
-- happen outside any epoch). `asserts=true` adds every assert that holds here: noprecede on
-- an opening fence, nostore on every fence (no rank stores into its own window), nosucceed
-- on the last. Asserts are promises that may only make a fence cheaper: the data and the
-- count per epoch are the same with and without them.
local counts = require("counts")  -- the fence's exchange, docs/message-counts.md

-- The asserts of a fence: `always` are needed by the pattern, the rest only with asserts=true.
local function asserts(always, optional)
  local list = {}
  for _, a in ipairs(always) do list[#list + 1] = a end
  if rma.opt.asserts then
    for _, a in ipairs(optional) do list[#list + 1] = a end
  end
  return list
end

return {
  ranks = 4,
  options = {
    epochs = {"fence epochs in run", 1},
    paired = {"open and close every epoch with its own pair of fences", false},
    asserts = {"pass every assert that holds (noprecede, nostore, nosucceed)", false},
    exchange = {"the window's fence_exchange (fewest): auto | messages | rounds", "auto"},
  },
  setup = function(ctx)
    ctx.win = rma.window{ size = 16, info = { fence_exchange = rma.opt.exchange } }
    ctx.val = rma.buffer(1, "i64")
    if not rma.opt.paired then ctx.win:fence(asserts({}, {"noprecede", "nostore"})) end
  end,
  run = function(ctx)
    local right, left = (rma.rank + 1) % rma.size, (rma.rank - 1) % rma.size
    for e = 1, rma.opt.epochs do
      -- A paired epoch ends with nosucceed: without it the closing fence would open the
      -- next epoch, as in the chained form.
      if rma.opt.paired then ctx.win:fence(asserts({}, {"noprecede", "nostore"})) end
      ctx.val:set(0, rma.rank * 1000 + e)
      ctx.win:put(ctx.val, right, 8 * (e % 2))
      ctx.win:fence(asserts(rma.opt.paired and {"nosucceed"} or {}, {"nostore"}))
      rma.expect_eq(ctx.win:local_buffer("i64"):get(e % 2), left * 1000 + e,
                    "left neighbour's value after epoch " .. e)
    end
  end,
  teardown = function(ctx)
    if not rma.opt.paired then ctx.win:fence(asserts({"nosucceed"}, {"nostore"})) end
    ctx.win:free()
  end,
  messages = function()
    if rma.size == 1 then return { total = 0 } end
    local n = rma.opt.epochs
    local k = counts.fence(counts.ring_pairs(), rma.opt.exchange).fence_count
    return { total = n * (rma.size + k), put = n * rma.size, fence_count = n * k }
  end,
}
