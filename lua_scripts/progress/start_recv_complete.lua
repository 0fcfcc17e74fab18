-- The start/recv/complete progress case of the seed notes. Rank 0 starts an access epoch,
-- puts 1 MiB (above the eager limit, so it needs a rendezvous the target must answer),
-- completes, then sends; rank 1 posts, waits in recv for that message, then waits for the
-- epoch. Rank 1's recv is inside the library, so any progress made there (async agent, or
-- progress in every call) answers the rendezvous and the case passes. With progress only in
-- synchronization calls, recv does not serve the rendezvous, complete never finishes, the
-- send never happens: a deadlock, which the harness must catch and report.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  options = { size = {"bytes put by rank 0", 1048576} },
  expect = "pass",
  setup = function(ctx)
    ctx.win = rma.window{ size = rma.opt.size }
    ctx.data = rma.buffer(rma.opt.size, "u8"):iota(11)
    ctx.msg = rma.buffer(8, "u8")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:start({1})
      ctx.win:put(ctx.data, 1, 0)
      ctx.win:complete()
      rma.send(1, ctx.msg:fill(1), 5)
    else
      ctx.win:post({0})
      rma.recv(0, ctx.msg, 5)
      ctx.win:wait()
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer():checksum(), ctx.data:checksum(), "1 MiB arrived")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  -- The post (ch3 only), the put (it carries complete's done), and above the eager limit the target's
  -- cts, which only its progress inside recv can send.
  messages = function()
    if rma.opt.size > rma.eager_limit then
      return counts.with_epoch({ put = 1, cts = 1 }, "pscw", 1)
    end
    return counts.with_epoch({ put = 1 }, "pscw", 1)
  end,
}
