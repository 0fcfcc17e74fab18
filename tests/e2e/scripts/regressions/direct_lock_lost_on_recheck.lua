-- Regression test: a defect the pattern library found, kept so it stays fixed. What follows
-- describes the defect as it was (file and function names of that time).
-- FIXED BUG (direct path on shm): an exclusive lock under contention is taken and then lost by
-- its own waiter, and every rank deadlocks in lock().
--   rmabench run tests/e2e/scripts/regressions/direct_lock_lost_on_recheck.lua --path direct --timeout 30
-- shm_sync.cpp acquire() waits with wait_for(..., [&] { return l.try_enter(ticket, x); })
-- but try_enter is not a pure test: when it succeeds it enters the lock (writer = 1, head =
-- ticket + 1). Engine::wait_until evaluates its predicate once more just before sleeping,
-- `if (pred() || has_incoming()) cancel_sleep();`, and drops that result: when the lock
-- is freed in that window the waiter enters it there, cancels the sleep, then re-tests in
-- `while (!pred())` — now head != ticket, so try_enter is false forever. The rank holds the
-- lock (writer 1) while waiting for it; every other rank queues behind it. Seen in gdb: a
-- rank waiting with ticket 8297 while head = 8298 and writer = 1.
-- It needs waiters that reach the sleep phase (over 220 µs of waiting): many ranks on few
-- cores. Expected: pass in well under a second. Got (8 ranks on 2 cores): DEADLOCK within
-- a few runs, every rank "blocked in lock ... waiting for passive lock on shared words"
-- (lua_scripts/passive/exclusive_lock_counter.lua -n 8 --path direct -o iterations=1000
-- shows it too).
return {
  ranks = 8,
  options = { epochs = {"exclusive lock epochs per rank", 3000} },
  setup = function(ctx) ctx.win = rma.window{ size = 8, path = "direct" } end,
  run = function(ctx)
    for _ = 1, rma.opt.epochs do
      ctx.win:lock(0, "exclusive")
      ctx.win:unlock(0)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
