-- Groups of post/start/complete/wait, by `layout`:
--   pairs    disjoint groups: even rank 2k is the origin of odd rank 2k+1 (a lone last rank
--            uses empty groups);
--   all      overlapping groups: every rank posts to all others and starts on all others,
--            so each is origin and target of everyone in the same pair of epochs;
--   fan_out  many targets: rank 0 starts on every other rank, each of which posts to it;
--   fan_in   many origins: rank 0 posts to every other rank, each of which starts on it.
-- Each origin puts its id into its own slot of each target; each target checks it got one
-- value from exactly the origins of its post group and nothing else. MPI matches a start to
-- the posts of the ranks in its group only, so overlapping epochs must not mix. Messages
-- (am): one put (carrying the done) per origin–target pair, and under ch3 one post.
local function groups(layout, me, n)
  local post, start = {}, {}
  if layout == "pairs" then
    local partner = me % 2 == 0 and me + 1 or me - 1
    if partner < n then
      if me % 2 == 0 then start = {partner} else post = {partner} end
    end
  elseif layout == "all" then
    for r = 0, n - 1 do
      if r ~= me then post[#post + 1] = r; start[#start + 1] = r end
    end
  elseif layout == "fan_out" then
    if me == 0 then
      for r = 1, n - 1 do start[#start + 1] = r end
    else
      post = {0}
    end
  elseif layout == "fan_in" then
    if me == 0 then
      for r = 1, n - 1 do post[#post + 1] = r end
    else
      start = {0}
    end
  else
    rma.fail("unknown layout '" .. layout .. "' (pairs, all, fan_out, fan_in)")
  end
  return post, start
end

local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 4,
  options = { layout = {"pairs, all, fan_out or fan_in", "all"},
              reps = {"epoch pairs run back to back", 1} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 * rma.size, disp_unit = 8 }
    ctx.win:local_buffer("i64"):fill(-1)
    ctx.val = rma.buffer(1, "i64"):set(0, 10 + rma.rank)
    ctx.post, ctx.start = groups(rma.opt.layout, rma.rank, rma.size)
  end,
  run = function(ctx)
    for _ = 1, rma.opt.reps do
      ctx.win:post(ctx.post)
      ctx.win:start(ctx.start)
      for _, t in ipairs(ctx.start) do ctx.win:put(ctx.val, t, rma.rank) end
      ctx.win:complete()
      ctx.win:wait()
    end
  end,
  check = function(ctx)
    local mem = ctx.win:local_buffer("i64")
    local from = {}
    for _, r in ipairs(ctx.post) do from[r] = true end
    for r = 0, rma.size - 1 do
      rma.expect_eq(mem:get(r), from[r] and 10 + r or -1, "slot of rank " .. r)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function(ctx)
    -- Rank 0 alone sees the whole layout: count the pairs from the groups' rule.
    local pairs = 0
    for r = 0, rma.size - 1 do
      local _, start = groups(rma.opt.layout, r, rma.size)
      pairs = pairs + #start
    end
    pairs = pairs * rma.opt.reps
    return counts.with_epoch({ put = pairs }, "pscw", pairs)
  end,
}
