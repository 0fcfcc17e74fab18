-- Every op × dtype of get_accumulate, no_op and replace included. Each rank works on its
-- right neighbour's window, one slot per valid (op, dtype): two get_accumulates on the
-- same elements in one epoch, the second after the first. The first must return the
-- initial values, the second the first's result, and the window must end with both
-- applied — accumulates from one origin to one location are ordered (MPI's default
-- accumulate_ordering), and each returns the value it replaced. no_op fetches without
-- changing anything and needs no origin buffer (nil). Expected values come from the
-- harness oracle. `sync`: lock, lock_all, fence or pscw. Messages (am), n ≥ 2 ranks, K
-- slots (2K ops with replies per rank): lock/lock_all n·(4K + 2), fence 4nK + E(n),
-- pscw n·(4K + 1).
local PAIRS = {
  i = { {5, 3}, {-7, 2}, {100, 100}, {0, -1}, {-100, -100}, {6, 0}, {0, 0}, {85, 51} },
  u = { {5, 3}, {200, 100}, {0, 7}, {255, 1}, {85, 51}, {6, 0}, {0, 0}, {128, 200} },
  f = { {1.5, 1.5}, {-3.0, 0.5}, {0.0, -1.0}, {7.0, 2.0}, {0.25, -3.0}, {6.0, 0.0} },
}

local function valid(op, dtype) return (pcall(rma.oracle, op, dtype, 0, 0)) end

-- The second operation's operand: another value of the type.
local function second(dtype, a)
  if dtype:sub(1, 1) == "f" then return a * 2 end
  return rma.oracle("sum", dtype, a, 1)
end

local exchange = require("counts").fence_exchange  -- E(n), docs/message-counts.md

local function pick(list, choice)
  if choice == "all" then return list end
  return {choice}
end

local function layout()
  local slots, off = {}, 0
  for _, dtype in ipairs(pick(rma.dtypes, rma.opt.dtype)) do
    local pairs_ = PAIRS[dtype:sub(1, 1)]
    for _, op in ipairs(pick(rma.ops, rma.opt.op)) do
      if valid(op, dtype) then
        local es = rma.buffer(1, dtype):bytes()
        slots[#slots + 1] = { op = op, dtype = dtype, disp = off, elem = off // es, pairs = pairs_ }
        off = off + (#pairs_ * es + 7) // 8 * 8
      end
    end
  end
  return slots, off
end

local function fill(buf, s, col, f)
  for i = 1, #s.pairs do buf:set(i - 1, f(s.pairs[i][col])) end
  return buf
end

return {
  ranks = 2,
  options = {
    sync = {"lock, lock_all, fence or pscw", "lock"},
    dtype = {"one dtype, or all", "all"},
    op = {"one op, or all", "all"},
  },
  setup = function(ctx)
    ctx.slots, ctx.size = layout()
    ctx.win = rma.window{ size = math.max(ctx.size, 8) }
    for _, s in ipairs(ctx.slots) do
      local n = #s.pairs
      fill(ctx.win:local_buffer(s.dtype):sub(s.elem, n), s, 1, function(v) return v end)
      s.a = fill(rma.buffer(n, s.dtype), s, 2, function(v) return v end)
      s.b = fill(rma.buffer(n, s.dtype), s, 2, function(v) return second(s.dtype, v) end)
      s.r1, s.r2 = rma.buffer(n, s.dtype), rma.buffer(n, s.dtype)
    end
  end,
  run = function(ctx)
    local sync, win = rma.opt.sync, ctx.win
    local right, left = (rma.rank + 1) % rma.size, (rma.rank - 1) % rma.size
    if sync == "lock" then win:lock(right, "exclusive")
    elseif sync == "lock_all" then win:lock_all()
    elseif sync == "fence" then win:fence("noprecede")
    elseif sync == "pscw" then win:post({left}); win:start({right})
    else rma.fail("unknown sync '" .. sync .. "'") end

    for _, s in ipairs(ctx.slots) do
      -- no_op reads only: no origin buffer.
      local no = s.op == "no_op"
      win:get_accumulate(not no and s.a or nil, s.r1, right, s.disp, s.op)
      win:get_accumulate(not no and s.b or nil, s.r2, right, s.disp, s.op)
    end

    if sync == "lock" then win:unlock(right)
    elseif sync == "lock_all" then win:unlock_all()
    elseif sync == "fence" then win:fence("nosucceed")
    else win:complete(); win:wait() end
  end,
  check = function(ctx)
    for _, s in ipairs(ctx.slots) do
      local n = #s.pairs
      local init = fill(rma.buffer(n, s.dtype), s, 1, function(v) return v end)
      local mid = init:copy():apply(s.op, s.a)
      local final = mid:copy():apply(s.op, s.b)
      local what = s.op .. " " .. s.dtype
      rma.expect_eq(s.r1, init, what .. ": the first returns the initial values")
      rma.expect_eq(s.r2, mid, what .. ": the second returns the first's result")
      rma.expect_eq(ctx.win:local_buffer(s.dtype):sub(s.elem, n), final, what .. ": both applied, in order")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function(ctx)
    local n, k = rma.size, #ctx.slots
    if n == 1 then return { total = 0 } end
    local sync = rma.opt.sync
    if sync == "fence" then
      return { total = 4 * n * k + exchange(n), get_accumulate = 2 * n * k,
               get_accumulate_resp = 2 * n * k, fence_count = exchange(n) }
    elseif sync == "pscw" then
      return { total = n * (4 * k + 1), post = n, get_accumulate = 2 * n * k,
               get_accumulate_resp = 2 * n * k }
    end
    return { total = n * (4 * k + 2), lock = n, lock_granted = n, get_accumulate = 2 * n * k,
             get_accumulate_resp = 2 * n * k }
  end,
}
