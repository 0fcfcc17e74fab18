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
local atomics = require("atomics")  -- operand pairs, slot layout (lib/)
local counts = require("counts")    -- messages an epoch costs (lib/)

return {
  ranks = 2,
  options = atomics.options("sync", "dtype", "op"),
  setup = function(ctx)
    ctx.slots, ctx.win = atomics.window(true)
    for _, s in ipairs(ctx.slots) do
      s.a = atomics.column(s, 2)
      s.b = atomics.column(s, 2, function(v) return atomics.second(s.dtype, v) end)
      s.r1, s.r2 = rma.buffer(#s.pairs, s.dtype), rma.buffer(#s.pairs, s.dtype)
    end
  end,
  run = function(ctx)
    atomics.ring_over_slots(ctx, function(win, right, s)
      -- no_op reads only: no origin buffer.
      local no = s.op == "no_op"
      win:get_accumulate(not no and s.a or nil, s.r1, right, s.off, s.op)
      win:get_accumulate(not no and s.b or nil, s.r2, right, s.off, s.op)
    end)
  end,
  check = function(ctx)
    for _, s in ipairs(ctx.slots) do
      local init = atomics.column(s, 1)
      local mid = init:copy():apply(s.op, s.a)
      local final = mid:copy():apply(s.op, s.b)
      local what = s.op .. " " .. s.dtype
      rma.expect_eq(s.r1, init, what .. ": the first returns the initial values")
      rma.expect_eq(s.r2, mid, what .. ": the second returns the first's result")
      rma.expect_eq(atomics.view(ctx.win, s), final, what .. ": both applied, in order")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function(ctx)
    local n, k = rma.size, #ctx.slots
    if n == 1 then return { total = 0 } end
    return counts.with_epoch({ get_accumulate = 2 * n * k, get_accumulate_resp = 2 * n * k },
                             rma.opt.sync, counts.ring_pairs())
  end,
}
