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
-- K = 1, the accumulate carrying the lock), fence (n-1)·K + the fence's exchange (counts.fence), pscw (n-1)·(K + 1).
local atomics = require("atomics")  -- operand pairs, slot layout (lib/)
local counts = require("counts")    -- messages an epoch costs (lib/)
local epoch = require("epoch")      -- the epoch rma.opt.sync names (lib/)

return {
  ranks = 2,
  options = atomics.options("sync", "dtype", "op"),
  -- Two things the reference checks here are not MPI's: accumulate with no_op (MPI-3.1
  -- §11.3.4 defines MPI_NO_OP for MPI_Get_accumulate and MPI_Fetch_and_op only) and OP
  -- raised for an op a dtype does not allow (erroneous; detecting it is not required:
  -- errors/misuse's unknown_op checks it, declared there). On a library neither is part of
  -- the default case (op=all): the no_op slots are left out and the erroneous calls not
  -- made, so that the case judges the library's accumulate on every op MPI defines, and a
  -- library defect there is a failure, not "implementation-defined". Only a case that asks
  -- for no_op itself is declared.
  impl_defined = {
    ["op=no_op"] = "MPI_NO_OP is defined for get_accumulate and fetch_and_op only (MPI-3.1 " ..
                   "§11.3.4): accumulate with no_op is the reference's extension",
  },
  setup = function(ctx)
    local library = rma.backend == "mpi"
    ctx.slots, ctx.win, ctx.invalid =
        atomics.window(rma.rank == 0, library and { no_op = true } or nil)  -- the target: rank 0
    if library then ctx.invalid = {} end  -- erroneous calls: the reference's check only
    for _, s in ipairs(ctx.slots) do
      s.operand = atomics.column(s, 2, function(v) return atomics.operand(s.dtype, v, rma.rank) end)
    end
  end,
  run = function(ctx)
    local sync, win = rma.opt.sync, ctx.win
    local all
    if rma.rank == 0 then
      all = {}
      for r = 0, rma.size - 1 do all[#all + 1] = r end
    end
    epoch.open(win, sync, 0, "shared", all)   -- rank 0 exposes its window to every rank

    for _, bad in ipairs(ctx.invalid) do
      rma.expect_error("OP", function() win:accumulate(rma.buffer(1, bad.dtype), 0, 0, bad.op) end)
    end
    for _, s in ipairs(ctx.slots) do win:accumulate(s.operand, 0, s.off, s.op) end

    epoch.close(win, sync, 0, rma.rank == 0)
  end,
  check = function(ctx)
    if rma.rank ~= 0 then return end
    for _, s in ipairs(ctx.slots) do
      local mem = atomics.view(ctx.win, s)
      for i = 1, #s.pairs do
        local got, init, base = mem:get(i - 1), s.pairs[i][1], s.pairs[i][2]
        local what = s.op .. " " .. s.dtype .. " element " .. (i - 1)
        if s.op == "replace" then
          local ok = false
          for r = 0, rma.size - 1 do ok = ok or got == atomics.operand(s.dtype, base, r) end
          rma.expect(ok, what .. ": one origin's operand, got " .. tostring(got))
        else
          local want = init
          for r = 0, rma.size - 1 do want = rma.oracle(s.op, s.dtype, want, atomics.operand(s.dtype, base, r)) end
          rma.expect_eq(got, want, what)
        end
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function(ctx)
    local remote, k = rma.size - 1, #ctx.slots
    local by = { accumulate = remote * k }
    local sync = rma.opt.sync
    if sync == "lock" or sync == "lock_all" then
      by.ack = remote
      -- A single accumulate carries the lock request itself.
      if k == 1 then by.total = 2 * remote; return by end
    end
    return counts.with_epoch(by, sync, counts.pairs_to(0))
  end,
}
