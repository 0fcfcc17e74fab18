-- Regression test: a defect the pattern library found, kept so it stays fixed. What follows
-- describes the defect as it was (file and function names of that time).
-- FIXED BUG (am path): polling a request with req:test() never completes it.
--   rmabench run tests/e2e/scripts/regressions/request_test_never_completes.lua --path am
-- Rank 0 issues one rput inside a lock epoch and polls req:test(). MPI's progress rule says
-- repeated MPI_Test calls must eventually complete the request. On the am path rput only
-- queues the op; Request::test() runs the progress engine but never issues the queued ops
-- (only a synchronization call or req:wait() does, through AmWin::advance), so test() stays
-- false forever. Expected: pass in well under a second. Got: the case fails after
-- `test_s` seconds of polling (hundreds of thousands of false tests).
-- The direct path passes (its ops complete at once).
return {
  ranks = 2,
  options = { test_s = {"seconds to poll before giving up", 3.0} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
    ctx.val = rma.buffer(1, "i64"):set(0, 42)
  end,
  run = function(ctx)
    if rma.rank ~= 0 then return end
    ctx.win:lock(1, "shared")
    local req = ctx.win:rput(ctx.val, 1, 0)
    local polls, t0 = 0, rma.now()
    while not req:test() do
      polls = polls + 1
      if rma.now() - t0 > rma.opt.test_s then
        rma.expect(false, "rput not complete after " .. polls .. " tests over " .. rma.opt.test_s .. " s")
        break
      end
    end
    ctx.win:unlock(1)
  end,
  check = function(ctx)
    if rma.rank == 1 then rma.expect_eq(ctx.win:local_buffer("i64"):get(0), 42, "the put arrived") end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
