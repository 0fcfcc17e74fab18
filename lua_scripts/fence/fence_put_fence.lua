-- fence, put, fence on two ranks: the first fence sends nothing. Under the fewest protocol
-- (the default) the put goes at the closing fence marked as rank 0's last op to rank 1 —
-- tagged with its fence epoch, so rank 1 would hold it if it were still in the fence before
-- — and rank 1's one message says it sent nothing to rank 0: 2 messages, the minimum. Under
-- ch3 the two ranks first exchange their counts (2 messages) and then the put goes: 3.
local counts = require("counts")  -- the fence's exchange, docs/message-counts.md

return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.a = rma.buffer(8, "u8"):fill(5)
  end,
  run = function(ctx)
    ctx.win:fence()
    if rma.rank == 0 then ctx.win:put(ctx.a, 1, 0) end
    ctx.win:fence()
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer():sub(0, 8), ctx.a, "put visible after the fence")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    return counts.with_epoch({ put = 1 }, "fence", { { 0, 1 } })  -- fewest 2, ch3 3
  end,
}
