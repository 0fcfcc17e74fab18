-- Regression test: a defect the pattern library found, kept so it stays fixed. What follows
-- describes the defect as it was (file and function names of that time).
-- FIXED BUG (both paths): lock(PROC_NULL) succeeds but unlock(PROC_NULL) fails, leaving the window
-- stuck in a lock epoch; and the lock writes outside the per-target lock table.
--   rmabench run tests/e2e/scripts/regressions/lock_proc_null.lua
-- Window::lock accepts rma::proc_null (check_peer(..., allow_proc_null=true)), skips the
-- table's lock, then Epochs::did_lock(-1) indexes locks_[static_cast<size_t>(-1)] — a write
-- before the start of the vector's buffer (heap corruption) — and counts a held lock.
-- Window::unlock(PROC_NULL) then fails Epochs::can_unlock (target < 0: "the target is not
-- locked"), so nothing can close the epoch: fence, lock_all and free all fail RMA_SYNC.
-- Expected either MPICH's behaviour (lock/unlock on PROC_NULL are no-ops) or a RANK error
-- from lock; in both cases the window must be freeable. Got: lock succeeds, unlock raises
-- RMA_SYNC "the target is not locked", free raises RMA_SYNC "a target is still locked".
return {
  ranks = 2,
  setup = function(ctx) ctx.win = rma.window{ size = 8 } end,
  run = function(ctx)
    local ok = pcall(ctx.win.lock, ctx.win, rma.PROC_NULL, "shared")
    if ok then
      local unlocked, err = pcall(ctx.win.unlock, ctx.win, rma.PROC_NULL)
      rma.expect(unlocked, "lock(PROC_NULL) succeeded, so unlock(PROC_NULL) must too: " .. tostring(err))
    end
  end,
  teardown = function(ctx)
    local freed, err = pcall(ctx.win.free, ctx.win)
    rma.expect(freed, "the window can be freed: " .. tostring(err))
  end,
}
