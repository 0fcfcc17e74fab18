-- lock, two puts and a get, unlock: the get is written first but moved last, so its reply is
-- the acknowledgement of the whole epoch. ch3: six messages (request, grant, two puts, get,
-- reply), not seven; fewest: four (the first put carries the request).
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.win:local_buffer():sub(32, 8):fill(9)
    ctx.a = rma.buffer(8, "u8"):fill(1)
    ctx.b = rma.buffer(8, "u8"):fill(2)
    ctx.into = rma.buffer(8, "u8")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:get(ctx.into, 1, 32)
      ctx.win:put(ctx.a, 1, 0)
      ctx.win:put(ctx.b, 1, 8)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then
      rma.expect_eq(ctx.into, rma.buffer(8, "u8"):fill(9), "get read the target's data")
    else
      local mem = ctx.win:local_buffer()
      rma.expect_eq(mem:sub(0, 8), ctx.a, "first put")
      rma.expect_eq(mem:sub(8, 8), ctx.b, "second put")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function() return counts.with_epoch({ put = 2, get = 1, get_resp = 1 }, "lock", 1) end,
}
