-- Regression test: a defect the pattern library found, kept so it stays fixed. What follows
-- describes the defect as it was (file and function names of that time).
-- FIXED BUG (Lua binding, both paths): a negative displacement raises a plain Lua error instead
-- of an RMA error value.
--   rmabench run tests/e2e/scripts/regressions/negative_disp_not_rma_error.lua
-- harness/lua/lua_window.cpp check_disp() calls luaL_error("displacement %d is negative"),
-- so the script gets a string, not {class = "DISP", ...}: rma.expect_error cannot catch it
-- by class and an uncaught one ends the case as `error` rather than as the RMA misuse it
-- is. API.md promises that every misuse raises an RMA error value. Expected: class DISP
-- (MPI_ERR_DISP) for put/get/accumulate/get_accumulate/fetch_and_op/compare_and_swap and
-- the request-based ops. Got: "a non-RMA error (... displacement -8 is negative)".
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.buf = rma.buffer(8, "u8")
  end,
  run = function(ctx)
    if rma.rank ~= 0 then return end
    local w = ctx.win
    w:lock(1, "shared")
    rma.expect_error("DISP", function() w:put(ctx.buf, 1, -8) end)
    rma.expect_error("DISP", function() w:get(ctx.buf, 1, -8) end)
    rma.expect_error("DISP", function() w:accumulate(ctx.buf, 1, -8, "sum") end)
    rma.expect_error("DISP", function() w:fetch_and_op(1, 1, -8, "sum", "i64") end)
    rma.expect_error("DISP", function() w:rput(ctx.buf, 1, -8) end)
    w:unlock(1)
  end,
  teardown = function(ctx) ctx.win:free() end,
}
