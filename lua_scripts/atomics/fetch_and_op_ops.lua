-- Every op × dtype of fetch_and_op, no_op included, in its two forms: `form=value` returns
-- the old value at once (the call completes the op, so it needs a lock or lock_all epoch),
-- `form=buffer` delivers it into a result buffer at the end of the epoch (any epoch). Each
-- rank works on its right neighbour's window, one slot per valid (op, dtype), each element
-- hit twice in a row: the first fetch must return the initial value, the second the
-- first's result, and the element must end with both applied (the oracle's values).
-- `sync`: lock, lock_all, fence or pscw (fence and pscw with form=buffer only). Messages
-- (am), n ≥ 2 ranks, M fetches per rank: value form n·(2M + 1) — each fetch and its reply,
-- the first carrying the lock, then the unlock packet; buffer form n·(2M + 2) under lock or
-- lock_all (request, grant, M fetches, M replies), 2nM + E(n) under fence, n·(2M + 1)
-- under pscw.
local PAIRS = {
  i = { {5, 3}, {-7, 2}, {100, 100}, {0, -1}, {-100, -100}, {6, 0}, {0, 0}, {85, 51} },
  u = { {5, 3}, {200, 100}, {0, 7}, {255, 1}, {85, 51}, {6, 0}, {0, 0}, {128, 200} },
  f = { {1.5, 1.5}, {-3.0, 0.5}, {0.0, -1.0}, {7.0, 2.0}, {0.25, -3.0}, {6.0, 0.0} },
}

local function valid(op, dtype) return (pcall(rma.oracle, op, dtype, 0, 0)) end

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
  local slots, off, fetches = {}, 0, 0
  for _, dtype in ipairs(pick(rma.dtypes, rma.opt.dtype)) do
    local pairs_ = PAIRS[dtype:sub(1, 1)]
    for _, op in ipairs(pick(rma.ops, rma.opt.op)) do
      if valid(op, dtype) then
        local es = rma.buffer(1, dtype):bytes()
        slots[#slots + 1] = { op = op, dtype = dtype, es = es, off = off, pairs = pairs_ }
        off = off + (#pairs_ * es + 7) // 8 * 8
        fetches = fetches + 2 * #pairs_
      end
    end
  end
  return slots, off, fetches
end

return {
  ranks = 2,
  options = {
    form = {"value (returned at once) or buffer (a result buffer)", "value"},
    sync = {"lock, lock_all, fence or pscw", "lock"},
    dtype = {"one dtype, or all", "all"},
    op = {"one op, or all", "all"},
  },
  setup = function(ctx)
    if rma.opt.form == "value" and (rma.opt.sync == "fence" or rma.opt.sync == "pscw") then
      rma.skip("a fetch_and_op returning its value needs a lock or lock_all epoch")
    end
    ctx.slots, ctx.size, ctx.fetches = layout()
    ctx.win = rma.window{ size = math.max(ctx.size, 8) }
    for _, s in ipairs(ctx.slots) do
      local mem = ctx.win:local_buffer(s.dtype):sub(s.off // s.es, #s.pairs)
      for i = 1, #s.pairs do mem:set(i - 1, s.pairs[i][1]) end
      s.r1, s.r2 = rma.buffer(#s.pairs, s.dtype), rma.buffer(#s.pairs, s.dtype)
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

    local value = rma.opt.form == "value"
    for _, s in ipairs(ctx.slots) do
      for i = 1, #s.pairs do
        local a = s.pairs[i][2]
        local b = second(s.dtype, a)
        local disp = s.off + (i - 1) * s.es
        if s.op == "no_op" then a, b = nil, nil end
        if value then
          s.r1:set(i - 1, win:fetch_and_op(a, right, disp, s.op, s.dtype))
          s.r2:set(i - 1, win:fetch_and_op(b, right, disp, s.op, s.dtype))
        else
          win:fetch_and_op(a, right, disp, s.op, s.dtype, s.r1:sub(i - 1, 1))
          win:fetch_and_op(b, right, disp, s.op, s.dtype, s.r2:sub(i - 1, 1))
        end
      end
    end

    if sync == "lock" then win:unlock(right)
    elseif sync == "lock_all" then win:unlock_all()
    elseif sync == "fence" then win:fence("nosucceed")
    else win:complete(); win:wait() end
  end,
  check = function(ctx)
    for _, s in ipairs(ctx.slots) do
      local mem = ctx.win:local_buffer(s.dtype):sub(s.off // s.es, #s.pairs)
      for i = 1, #s.pairs do
        local init, a = s.pairs[i][1], s.pairs[i][2]
        local b = second(s.dtype, a)
        local mid = rma.oracle(s.op, s.dtype, init, a)
        local what = s.op .. " " .. s.dtype .. " element " .. (i - 1)
        rma.expect_eq(s.r1:get(i - 1), init, what .. ": first fetch")
        rma.expect_eq(s.r2:get(i - 1), mid, what .. ": second fetch")
        rma.expect_eq(mem:get(i - 1), rma.oracle(s.op, s.dtype, mid, b), what .. ": final")
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function(ctx)
    local n, m = rma.size, ctx.fetches
    if n == 1 then return { total = 0 } end
    local by = { fetch_and_op = n * m, fetch_and_op_resp = n * m }
    local sync = rma.opt.sync
    if rma.opt.form == "value" then
      by.total, by.unlock = n * (2 * m + 1), n
    elseif sync == "fence" then
      by.total, by.fence_count = 2 * n * m + exchange(n), exchange(n)
    elseif sync == "pscw" then
      by.total, by.post = n * (2 * m + 1), n
    else
      by.total, by.lock, by.lock_granted = n * (2 * m + 2), n, n
    end
    return by
  end,
}
