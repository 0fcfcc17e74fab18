-- lock, three puts, unlock: the last put carries the unlock and asks for the ack. ch3: with
-- more than one op the lock request goes alone and the ops wait for the grant — six messages
-- (request, grant, three puts, ack); fewest: the first put carries the request and the
-- target holds the puts until the grant — four.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.a = rma.buffer(8, "u8"):fill(1)
    ctx.b = rma.buffer(8, "u8"):fill(2)
    ctx.c = rma.buffer(8, "u8"):fill(3)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:put(ctx.a, 1, 0)
      ctx.win:put(ctx.b, 1, 8)
      ctx.win:put(ctx.c, 1, 16)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      local mem = ctx.win:local_buffer()
      rma.expect_eq(mem:sub(0, 8), ctx.a, "first put")
      rma.expect_eq(mem:sub(8, 8), ctx.b, "second put")
      rma.expect_eq(mem:sub(16, 8), ctx.c, "third put")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function() return counts.with_epoch({ put = 3, ack = 1 }, "lock", 1) end,
}
