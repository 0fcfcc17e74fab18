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

-- Adds to `by` (the packets per type an epoch's ops send, am path) what opening and closing
-- the epoch costs, for `links` origin-target pairs among rma.size ranks (fence needs no
-- `links`: its cost is the count exchange among all ranks), and sets `by.total`.
-- `sync` names the epoch as the patterns' sync options do: fence adds the closing fence's
-- E(n); pscw a post per pair; lock and lock_all a lock request and its grant per pair (the
-- last op's reply or ack releases the lock: no unlock packet).
function counts.with_epoch(by, sync, links)
  local cost
  if sync == "fence" then cost = { fence_count = counts.fence_exchange(rma.size) }
  elseif sync == "pscw" then cost = { post = links }
  elseif sync == "lock" or sync == "lock_all" then cost = { lock = links, lock_granted = links }
  else error("unknown sync '" .. tostring(sync) .. "'", 2) end
  for k, v in pairs(cost) do by[k] = (by[k] or 0) + v end
  local total = 0
  for _, v in pairs(by) do total = total + v end
  by.total = total
  return by
end

return counts
