-- Regression test: a defect the random programs (lua_scripts/random/programs.lua) found,
-- kept so it stays fixed.
-- FIXED BUG (harness, am path): a request-based op whose request the script drops keeps its
-- origin buffer alive only through the request, so a garbage collection before the unlock
-- freed the buffer while the am path still had the op queued; the target then received
-- whatever the freed memory held. MPI lets a program never wait on such a request: the
-- unlock completes it. The Lua binding now pins the buffers of request-based ops on the
-- window too, until the unlock or flush that completes them.
--   rmabench run tests/e2e/scripts/regressions/dropped_request_buffer.lua --path am
-- Expected: rank 1's window holds 1..count, then 1000. Got (before the fix): garbage in some elements.
return {
  ranks = 2,
  options = { count = {"elements per rput", 64} },
  setup = function(ctx) ctx.win = rma.window{ size = 8 * (rma.opt.count + 1) } end,
  run = function(ctx)
    if rma.rank ~= 0 then return end
    local n = rma.opt.count
    ctx.win:lock(1, "shared")
    -- Neither the request nor the buffers are kept by the script.
    ctx.win:rput(rma.buffer(n, "i64"):iota(1), 1, 0)
    ctx.win:raccumulate(rma.buffer(1, "i64"):fill(1000), 1, 8 * n, "sum")
    for _ = 1, 3 do
      -- New garbage to reuse the freed memory, then a full collection.
      for _ = 1, 50 do rma.buffer(n, "i64"):fill(-7) end
      collectgarbage("collect")
    end
    ctx.win:unlock(1)
  end,
  check = function(ctx)
    if rma.rank ~= 1 then return end
    local n = rma.opt.count
    local want = rma.buffer(n + 1, "i64"):iota(1)
    want:set(n, 1000)
    rma.expect_eq(ctx.win:local_buffer("i64"), want, "what rank 0's dropped requests wrote")
  end,
  teardown = function(ctx) ctx.win:free() end,
}
