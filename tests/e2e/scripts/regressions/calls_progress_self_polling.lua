-- Regression test: a defect the pattern library found, kept so it stays fixed. What follows
-- describes the defect as it was (file and function names of that time).
-- FIXED BUG (am path, --progress calls and sync-only): a rank that polls its own window with RMA
-- calls never makes progress for anyone else.
--   rmabench run tests/e2e/scripts/regressions/calls_progress_self_polling.lua --path am --progress calls
-- Rank 0 waits for a flag in its own window by polling it with fetch_and_op(no_op) on
-- itself (a value-returning call: the op plus flush_local) — MPI's usual way to spin on a
-- local word. Rank 1 sets the flag with accumulate(replace) and flush, which needs rank 0
-- to handle its packet. In `calls` mode progress is promised inside every library call
-- (and flush_local is a synchronization call, so `sync-only` promises it too), but ops to
-- this rank's own window are applied in place and Engine::wait_until returns at once when
-- its predicate already holds — no call rank 0 makes ever polls the transport. Rank 0
-- spins forever, rank 1 waits in flush forever. The same livelock makes
-- lua_scripts/atomics/cas_mutex.lua time out with 4 ranks in calls mode (rank 0 spins on
-- the lock word held by a rank whose put it never serves). Expected: pass at once.
-- Got: the case fails after `poll_s` seconds with rank 1 still blocked in flush.
return {
  ranks = 2,
  options = { poll_s = {"seconds rank 0 polls before giving up", 3.0} },
  setup = function(ctx) ctx.win = rma.window{ size = 8 } end,
  run = function(ctx)
    ctx.win:lock_all()
    if rma.rank == 1 then
      ctx.win:accumulate(rma.buffer(1, "i64"):set(0, 1), 0, 0, "replace")
      ctx.win:flush(0)
    else
      local polls, t0 = 0, rma.now()
      while ctx.win:fetch_and_op(nil, 0, 0, "no_op", "i64") ~= 1 do
        polls = polls + 1
        if rma.now() - t0 > rma.opt.poll_s then
          rma.expect(false, "flag not set after " .. polls .. " polls over " .. rma.opt.poll_s .. " s")
          break
        end
      end
    end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
