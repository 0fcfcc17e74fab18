-- start before the matching post: the origin calls start at once while the target computes
-- for `delay_s` seconds before it posts. MPI lets start return before the post (or block
-- until it); either way the origin's put must not reach the target's window before the
-- post — the target writes its window's memory right before posting, and the put must
-- land on top of that, not under it. Afterwards the window holds the put, and the origin
-- reports as metrics how long start and complete took (the am path: start returns at
-- once, complete waits for the post). Messages (am): the post and the put with the done.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  options = { delay_s = {"seconds the target computes before it posts", 0.2} },
  setup = function(ctx)
    if rma.size < 2 then rma.skip("needs an origin and a target: two ranks") end
    ctx.win = rma.window{ size = 64 }
    ctx.data = rma.buffer(64, "u8"):iota(9)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      local t0 = rma.now()
      ctx.win:start({1})
      local t1 = rma.now()
      ctx.win:put(ctx.data, 1, 0)
      ctx.win:complete()
      rma.metric("start_s", t1 - t0)
      rma.metric("complete_s", rma.now() - t1)
    elseif rma.rank == 1 then
      local t0 = rma.now()
      while rma.now() - t0 < rma.opt.delay_s do end
      -- Outside any epoch: a local store to the window, which the put must overwrite.
      ctx.win:local_buffer():fill(0xEE)
      ctx.win:post({0})
      ctx.win:wait()
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer(), ctx.data, "the put landed after the post")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function() return counts.with_epoch({ put = 1 }, "pscw", 1) end,
}
