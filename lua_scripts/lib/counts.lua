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

return counts
