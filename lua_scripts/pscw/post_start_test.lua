-- post/start/complete/test: the target ends its exposure epoch by polling test() instead
-- of blocking in wait(). MPI_Win_test returns false until every origin of the post group
-- has completed, then true exactly once, closing the epoch like wait would; the window's
-- memory then holds the origins' data. The origin delays its complete by a message the
-- target sends only after its first test, so the target is seen testing false (an
-- implementation whose test returned true at once, or blocked, would fail or hang). Over
-- `epochs` epochs, each polled to completion; every rank but 0 is an origin. Messages (am):
-- per epoch and origin, the post and the put that carries the done.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  options = { epochs = {"exposure epochs, each ended by test", 3} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 * rma.opt.epochs * rma.size, disp_unit = 8 }
    ctx.val = rma.buffer(1, "i64")
    ctx.note = rma.buffer(1, "u8")
  end,
  run = function(ctx)
    local origins = {}
    for r = 1, rma.size - 1 do origins[#origins + 1] = r end
    for e = 0, rma.opt.epochs - 1 do
      if rma.rank == 0 then
        ctx.win:post(origins)
        if #origins == 0 then
          rma.expect(ctx.win:test(), "an empty post group: test is true at once")
        else
          rma.expect(not ctx.win:test(), "test is false before any origin completed")
          for _, r in ipairs(origins) do rma.send(r, ctx.note, 2) end
          local polls = 1
          while not ctx.win:test() do polls = polls + 1 end
          rma.log("epoch", e, "test polled", polls, "times")
        end
        rma.expect_error("RMA_SYNC", function() ctx.win:test() end)  -- the epoch is over
      else
        ctx.win:start({0})
        ctx.val:set(0, rma.rank * 100 + e)
        ctx.win:put(ctx.val, 0, e * rma.size + rma.rank)
        rma.recv(0, ctx.note, 2)
        ctx.win:complete()
      end
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then
      local mem = ctx.win:local_buffer("i64")
      for e = 0, rma.opt.epochs - 1 do
        for r = 1, rma.size - 1 do
          rma.expect_eq(mem:get(e * rma.size + r), r * 100 + e, "epoch " .. e .. ", origin " .. r)
        end
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n = rma.size - 1
    return counts.with_epoch({ put = n * rma.opt.epochs }, "pscw", n * rma.opt.epochs)
  end,
}
