-- Every op × dtype of accumulate. All ranks accumulate, concurrently and with the same op
-- per location, into rank 0's window: one slot per valid (op, dtype), each element a case
-- of its own (wrap-around, negative, zero, bit patterns). Each element must end as the
-- harness oracle says: the initial value combined with every origin's operand — in any
-- order, as all the ops but replace are commutative and associative on these values (float
-- operands are small so that sums and products are exact in any order); for replace, one
-- origin's operand. An op not defined for a dtype (bitwise or logical ops on floats) must
-- raise OP and change nothing. `sync` picks the epoch: lock (shared), lock_all, fence or
-- pscw; `dtype` and `op` narrow the matrix ("all" by default). Messages (am), n ranks, K
-- slots: lock/lock_all K + 3 per remote origin (lock, grant, K accumulates, ack; 2 when
-- K = 1, the accumulate carrying the lock), fence (n-1)·K + E(n), pscw (n-1)·(K + 1).
local PAIRS = {
  i = { {5, 3}, {-7, 2}, {100, 100}, {0, -1}, {-100, -100}, {6, 0}, {0, 0}, {85, 51} },
  u = { {5, 3}, {200, 100}, {0, 7}, {255, 1}, {85, 51}, {6, 0}, {0, 0}, {128, 200} },
  f = { {1.5, 1.5}, {-3.0, 0.5}, {0.0, -1.0}, {7.0, 2.0}, {0.25, -3.0}, {6.0, 0.0} },
}

local function valid(op, dtype) return (pcall(rma.oracle, op, dtype, 0, 0)) end

-- Origin r's operand: integers differ per origin (wrapping), floats stay exact.
local function operand(dtype, base, r)
  if dtype:sub(1, 1) == "f" then return base end
  return rma.oracle("sum", dtype, base, r)
end

local exchange = require("counts").fence_exchange  -- E(n), docs/message-counts.md

local function pick(list, choice)
  if choice == "all" then return list end
  return {choice}
end

-- The slots: one per valid (op, dtype), 8-byte aligned.
local function layout()
  local slots, off, invalid = {}, 0, {}
  for _, dtype in ipairs(pick(rma.dtypes, rma.opt.dtype)) do
    local pairs_ = PAIRS[dtype:sub(1, 1)]
    for _, op in ipairs(pick(rma.ops, rma.opt.op)) do
      if valid(op, dtype) then
        local bytes = #pairs_ * rma.buffer(1, dtype):bytes()
        slots[#slots + 1] = { op = op, dtype = dtype, off = off, pairs = pairs_ }
        off = off + (bytes + 7) // 8 * 8
      else
        invalid[#invalid + 1] = { op = op, dtype = dtype }
      end
    end
  end
  return slots, off, invalid
end

return {
  ranks = 2,
  options = {
    sync = {"lock, lock_all, fence or pscw", "lock"},
    dtype = {"one dtype, or all", "all"},
    op = {"one op, or all", "all"},
  },
  setup = function(ctx)
    ctx.slots, ctx.size, ctx.invalid = layout()
    ctx.win = rma.window{ size = math.max(ctx.size, 8) }
    ctx.operands = {}
    for k, s in ipairs(ctx.slots) do
      local n = #s.pairs
      local mem = ctx.win:local_buffer(s.dtype):sub(s.off // rma.buffer(1, s.dtype):bytes(), n)
      local b = rma.buffer(n, s.dtype)
      for i = 1, n do
        if rma.rank == 0 then mem:set(i - 1, s.pairs[i][1]) end
        b:set(i - 1, operand(s.dtype, s.pairs[i][2], rma.rank))
      end
      ctx.operands[k] = b
    end
  end,
  run = function(ctx)
    local sync, win = rma.opt.sync, ctx.win
    if sync == "lock" then win:lock(0, "shared")
    elseif sync == "lock_all" then win:lock_all()
    elseif sync == "fence" then win:fence("noprecede")
    elseif sync == "pscw" then
      if rma.rank == 0 then
        local all = {}
        for r = 0, rma.size - 1 do all[#all + 1] = r end
        win:post(all)
      end
      win:start({0})
    else rma.fail("unknown sync '" .. sync .. "'") end

    for _, bad in ipairs(ctx.invalid) do
      rma.expect_error("OP", function() win:accumulate(rma.buffer(1, bad.dtype), 0, 0, bad.op) end)
    end
    for k, s in ipairs(ctx.slots) do win:accumulate(ctx.operands[k], 0, s.off, s.op) end

    if sync == "lock" then win:unlock(0)
    elseif sync == "lock_all" then win:unlock_all()
    elseif sync == "fence" then win:fence("nosucceed")
    else
      win:complete()
      if rma.rank == 0 then win:wait() end
    end
  end,
  check = function(ctx)
    if rma.rank ~= 0 then return end
    for _, s in ipairs(ctx.slots) do
      local es = rma.buffer(1, s.dtype):bytes()
      local mem = ctx.win:local_buffer(s.dtype):sub(s.off // es, #s.pairs)
      for i = 1, #s.pairs do
        local got, init, base = mem:get(i - 1), s.pairs[i][1], s.pairs[i][2]
        local what = s.op .. " " .. s.dtype .. " element " .. (i - 1)
        if s.op == "replace" then
          local ok = false
          for r = 0, rma.size - 1 do ok = ok or got == operand(s.dtype, base, r) end
          rma.expect(ok, what .. ": one origin's operand, got " .. tostring(got))
        else
          local want = init
          for r = 0, rma.size - 1 do want = rma.oracle(s.op, s.dtype, want, operand(s.dtype, base, r)) end
          rma.expect_eq(got, want, what)
        end
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function(ctx)
    local n, k = rma.size, #ctx.slots
    local remote = n - 1
    local sync = rma.opt.sync
    if sync == "fence" then
      return { total = remote * k + exchange(n), accumulate = remote * k, fence_count = exchange(n) }
    elseif sync == "pscw" then
      return { total = remote * (k + 1), post = remote, accumulate = remote * k }
    elseif k == 1 then
      return { total = 2 * remote, accumulate = remote, ack = remote }
    end
    return { total = remote * (k + 3), lock = remote, lock_granted = remote,
             accumulate = remote * k, ack = remote }
  end,
}
