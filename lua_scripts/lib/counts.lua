-- Message counts the patterns share, as docs/message-counts.md derives them; a pattern in any
-- folder gets it with `require("counts")` (the harness puts lua_scripts/lib/ on package.path).
local counts = {}

-- E(n): the packets of a closing fence's count exchange among n ranks on the am path under
-- ch3, 2r + p·log2(p) with p the largest power of two ≤ n and r = n − p (recursive halving).
function counts.fence_exchange(n)
  local p, steps = 1, 0
  while p * 2 <= n do p = p * 2; steps = steps + 1 end
  return 2 * (n - p) + p * steps
end

-- The am packet protocol the case runs (rma.protocol): "fewest", the default, or "ch3".
function counts.protocol() return rma.protocol or "fewest" end

-- What a target holds for one origin ahead of a grant: per op its packet header plus its eager
-- data; the window's hold_budget bounds it (the default, docs/protocol.md).
counts.HEADER = 48
counts.HOLD_BUDGET = 64 * 1024

-- What asking for a passive-target lock costs, for `links` origin-target pairs whose epoch
-- sends ops: under ch3 a lock request and its grant per pair (unless a single eager op
-- carries the request: the caller's business); under fewest nothing, the first op carries
-- the request and the target holds the epoch's ops until the grant — as long as what it
-- holds fits the window's hold_budget (`fits` false, or a number of held bytes above the
-- default budget: the pair asks first, as under ch3).
function counts.lock_request(links, fits)
  if type(fits) == "number" then fits = fits <= counts.HOLD_BUDGET end
  if counts.protocol() == "fewest" and fits ~= false then return {} end
  return { lock = links, lock_granted = links }
end

-- What PSCW's post costs for `links` origin-target pairs: under ch3 one zero-byte post per
-- pair; under fewest nothing, the target holds what an origin sends ahead of its post — as
-- long as it fits the hold_budget (`fits` as for lock_request: else the origin asks for the
-- post and the target answers, two messages).
function counts.post(links, fits)
  if type(fits) == "number" then fits = fits <= counts.HOLD_BUDGET end
  if counts.protocol() ~= "fewest" then return { post = links } end
  if fits == false then return { post = 2 * links } end
  return {}
end

-- Adds the packet counts of `cost` to `by`; returns `by`.
function counts.add(by, cost)
  for k, v in pairs(cost) do by[k] = (by[k] or 0) + v end
  return by
end

-- Sets `by.total` to the sum of its packet counts; returns `by`.
function counts.total(by)
  local total = 0
  for k, v in pairs(by) do if k ~= "total" then total = total + v end end
  by.total = total
  return by
end

-- Origin-target pairs {o, t} (o ≠ t) whose epoch has ops, among rma.size ranks: every rank
-- to its right neighbour, every rank to every other, every other rank to `t`, none.
function counts.ring_pairs()
  local n, p = rma.size, {}
  if n < 2 then return p end
  for r = 0, n - 1 do p[#p + 1] = { r, (r + 1) % n } end
  return p
end

function counts.all_pairs()
  local p = {}
  for o = 0, rma.size - 1 do
    for t = 0, rma.size - 1 do if o ~= t then p[#p + 1] = { o, t } end end
  end
  return p
end

function counts.pairs_to(t)
  local p = {}
  for o = 0, rma.size - 1 do if o ~= t then p[#p + 1] = { o, t } end end
  return p
end

-- The packets a closing fence among rma.size ranks adds to its epoch's ops (`pairs`: the
-- origin-target pairs with ops; docs/message-counts.md, "The fence's count exchange").
-- ch3: E(n) `fence_count`, ahead of the ops. fewest, by the window's fence_exchange
-- (`exchange`: "auto" — messages above 2 ranks, rounds up to 2 —, "messages", "rounds"):
--   messages: 2(n − 1) notes, less one for each rank whose last op to rank 0 carries its
--             contribution and one for each rank rank 0's last op carries the total to;
--   rounds:   n(n − 1) marks, of which each pair's last op is one.
-- `fits`: as for counts.lock_request, the bytes each pair's batch would hold at its target
-- (or false); a pair over the hold budget sends later — under messages a contribution to
-- rank 0 then goes alone, under rounds the origin first sends an `enter` note.
function counts.fence(links, exchange, fits)
  local n = rma.size
  if n < 2 then return {} end
  if counts.protocol() ~= "fewest" then return { fence_count = counts.fence_exchange(n) } end
  exchange = exchange or "auto"
  if exchange == "auto" then exchange = n <= 2 and "rounds" or "messages" end
  local over = fits == false or (type(fits) == "number" and fits > counts.HOLD_BUDGET)
  local k
  if exchange == "rounds" then
    k = n * (n - 1) - #links + (over and #links or 0)
  elseif exchange == "messages" then
    k = 2 * (n - 1)
    for _, p in ipairs(links) do
      if p[2] == 0 and not over then k = k - 1 end   -- a contribution rides on the op
      if p[1] == 0 then k = k - 1 end                -- a total rides on rank 0's op
    end
  else
    error("unknown fence exchange '" .. tostring(exchange) .. "'", 2)
  end
  return { fence_count = k }
end

-- Adds to `by` (the packets per type an epoch's ops send, am path) what opening and closing
-- the epoch costs, for `links` origin-target pairs among rma.size ranks, and sets `by.total`.
-- `links` is a count of pairs, or the list of pairs (counts.ring_pairs(), ...) — which fence
-- needs: its exchange depends on which pairs have ops.
-- `sync` names the epoch as the patterns' sync options do: fence adds counts.fence; pscw
-- counts.post; lock and lock_all counts.lock_request (the last op's reply or ack releases the
-- lock: no unlock packet), `held` the bytes each pair's epoch would hold.
function counts.with_epoch(by, sync, links, held)
  local cost
  local nlinks = type(links) == "table" and #links or links
  if sync == "fence" then
    if type(links) ~= "table" then error("fence needs the list of origin-target pairs", 2) end
    cost = counts.fence(links, nil, held)
  elseif sync == "pscw" then cost = counts.post(nlinks, held)
  elseif sync == "lock" or sync == "lock_all" then cost = counts.lock_request(nlinks, held)
  else error("unknown sync '" .. tostring(sync) .. "'", 2) end
  return counts.total(counts.add(by, cost))
end

return counts
