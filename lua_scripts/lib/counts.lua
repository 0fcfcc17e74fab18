-- Message counts the patterns share, as docs/message-counts.md derives them; a pattern in any
-- folder gets it with `require("counts")` (the harness puts lua_scripts/lib/ on package.path).
local counts = {}

-- E(n): the packets of a closing fence's count exchange among n ranks on the am path,
-- 2r + p·log2(p) with p the largest power of two ≤ n and r = n − p.
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

-- Adds to `by` (the packets per type an epoch's ops send, am path) what opening and closing
-- the epoch costs, for `links` origin-target pairs among rma.size ranks (fence needs no
-- `links`: its cost is the count exchange among all ranks), and sets `by.total`.
-- `sync` names the epoch as the patterns' sync options do: fence adds the closing fence's
-- E(n); pscw counts.post; lock and lock_all counts.lock_request (the last op's reply or
-- ack releases the lock: no unlock packet), `held` the bytes each pair's epoch would hold.
function counts.with_epoch(by, sync, links, held)
  local cost
  if sync == "fence" then cost = { fence_count = counts.fence_exchange(rma.size) }
  elseif sync == "pscw" then cost = counts.post(links, held)
  elseif sync == "lock" or sync == "lock_all" then cost = counts.lock_request(links, held)
  else error("unknown sync '" .. tostring(sync) .. "'", 2) end
  return counts.total(counts.add(by, cost))
end

return counts
