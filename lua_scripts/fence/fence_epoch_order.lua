-- Ops of the next fence epoch must not overtake the epoch before at their target. Epoch A:
-- rank 2 puts `size` bytes (by default above the eager limit: request, cts, then the data)
-- into rank 1; epoch B, right after: rank 3 puts 8 bytes over the first of them. After B's
-- fence rank 1 must hold rank 3's 8 bytes, then rank 2's data. Under the fewest protocol rank 3
-- may leave A's fence (its own count has come) while rank 2's data is still streaming into
-- rank 1, and sends its B put at once: rank 1, still in A's fence, must hold it until it
-- returns from that fence (RMA_FAULT=held_op_early applies it at arrival: rank 2's data then
-- lands over it). Repeated `reps` times with fresh values, alternating between two halves of
-- the window: rank 1 reads one half after B's fence while rank 2's next A put, already in
-- the next epoch, goes to the other (a local read of a location a put targets in the same
-- epoch would be a conflicting access).
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 4,
  options = {
    size = {"bytes of rank 2's put", 1048576},
    reps = {"A-B pairs of epochs", 20},
    exchange = {"the window's fence_exchange (fewest): auto | messages | rounds", "auto"},
  },
  setup = function(ctx)
    ctx.win = rma.window{ size = 2 * rma.opt.size, info = { fence_exchange = rma.opt.exchange } }
    ctx.big = rma.buffer(rma.opt.size, "u8")
    ctx.small = rma.buffer(8, "u8")
    ctx.win:fence("noprecede")
  end,
  run = function(ctx)
    for e = 1, rma.opt.reps do
      local at = (e % 2) * rma.opt.size
      if rma.rank == 2 then ctx.win:put(ctx.big:iota(e), 1, at) end
      ctx.win:fence()
      if rma.rank == 3 then ctx.win:put(ctx.small:fill((100 + e) % 256), 1, at) end
      ctx.win:fence()
      if rma.rank == 1 then
        local want = rma.buffer(rma.opt.size, "u8"):iota(e)
        want:sub(0, 8):fill((100 + e) % 256)
        rma.expect_eq(ctx.win:local_buffer():sub(at, rma.opt.size):checksum(), want:checksum(),
                      "epoch B's put over epoch A's, repetition " .. e)
      end
    end
  end,
  teardown = function(ctx)
    ctx.win:fence("nosucceed")
    ctx.win:free()
  end,
  messages = function()
    local by = { put = 2 * rma.opt.reps }
    if rma.opt.size > rma.eager_limit then by.cts = rma.opt.reps end
    for _ = 1, rma.opt.reps do
      counts.add(by, counts.fence({ { 2, 1 } }, rma.opt.exchange))
      counts.add(by, counts.fence({ { 3, 1 } }, rma.opt.exchange))
    end
    return counts.total(by)
  end,
}
