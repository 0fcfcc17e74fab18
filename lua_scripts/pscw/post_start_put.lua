-- post/start/put/complete/wait: start sends nothing and the put carries complete's "done".
-- ch3: the target's post is one zero-byte message — two messages; fewest: the put goes
-- ahead of the post, tagged with its access epoch, and the target holds it until it posts
-- — one message.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.a = rma.buffer(16, "u8"):iota(3)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:start({1})
      ctx.win:put(ctx.a, 1, 8)
      ctx.win:complete()
    else
      ctx.win:post({0})
      ctx.win:wait()
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer():sub(8, 16), ctx.a, "put arrived by wait")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function() return counts.with_epoch({ put = 1 }, "pscw", 1) end,
}
