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
local counts = require("counts")    -- per-op header size (lib/)
local atomics = require("atomics")  -- operand pairs, slot layout, messages (lib/)

return {
  ranks = 2,
  options = atomics.options("form", "sync", "dtype", "op"),
  setup = function(ctx)
    atomics.check_form("fetch_and_op")
    ctx.slots, ctx.win = atomics.window(true)
    ctx.fetches, ctx.held = 0, 0
    for _, s in ipairs(ctx.slots) do
      s.r1, s.r2 = rma.buffer(#s.pairs, s.dtype), rma.buffer(#s.pairs, s.dtype)
      ctx.fetches = ctx.fetches + 2 * #s.pairs
      ctx.held = ctx.held + 2 * #s.pairs * (counts.HEADER + s.es)
    end
  end,
  run = function(ctx)
    atomics.ring_over_slots(ctx, function(win, right, s)
      for i = 1, #s.pairs do
        local a = s.pairs[i][2]
        local b = atomics.second(s.dtype, a)
        local disp = s.off + (i - 1) * s.es
        if s.op == "no_op" then a, b = nil, nil end
        atomics.fetch(s.r1, i - 1, function(r) return win:fetch_and_op(a, right, disp, s.op, s.dtype, r) end)
        atomics.fetch(s.r2, i - 1, function(r) return win:fetch_and_op(b, right, disp, s.op, s.dtype, r) end)
      end
    end)
  end,
  check = function(ctx)
    for _, s in ipairs(ctx.slots) do
      local mem = atomics.view(ctx.win, s)
      for i = 1, #s.pairs do
        local init, a = s.pairs[i][1], s.pairs[i][2]
        local b = atomics.second(s.dtype, a)
        local mid = rma.oracle(s.op, s.dtype, init, a)
        local what = s.op .. " " .. s.dtype .. " element " .. (i - 1)
        rma.expect_eq(s.r1:get(i - 1), init, what .. ": first fetch")
        rma.expect_eq(s.r2:get(i - 1), mid, what .. ": second fetch")
        rma.expect_eq(mem:get(i - 1), rma.oracle(s.op, s.dtype, mid, b), what .. ": final")
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function(ctx) return atomics.fetch_messages("fetch_and_op", ctx.fetches, ctx.held) end,
}
