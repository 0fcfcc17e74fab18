-- Expectation failures are collected and reported with file:line; rma.skip in setup on
-- every rank makes the case a skip (option `mode` chooses).
-- tests/e2e/foundation_test.cpp checks the file:line reported: keep the lines where they are.
return {
  ranks = 2,
  options = { mode = {"fail | skip | fail_call", "fail"} },
  setup = function(ctx)
    if rma.opt.mode == "skip" then rma.skip("not on this machine") end
  end,
  run = function(ctx)
    if rma.opt.mode == "fail_call" and rma.rank == 0 then rma.fail("explicit failure") end
    rma.expect(rma.rank < 0, "rank is negative")
    rma.expect_eq(rma.size, 3, "size")
  end,
}
