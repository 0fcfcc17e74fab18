-- get under fence: every rank reads `size` bytes from every other rank (an all-to-all of
-- gets) in one fence epoch, from memory the target filled before the opening fence. After
-- the closing fence the data must be in every origin's buffers: a fence completes gets at
-- the origin as well as puts at the target. Large gets (above the eager limit) stream their
-- reply. Messages on the am path: a get and its reply per pair, plus the closing fence's
-- count exchange (counts.fence).
local counts = require("counts")  -- a fence epoch's E(n), docs/message-counts.md

return {
  ranks = 4,
  options = { size = {"bytes per get", 64} },
  setup = function(ctx)
    ctx.win = rma.window{ size = rma.opt.size }
    ctx.win:local_buffer():iota(rma.rank * 37 + 1)
    ctx.into = {}
    for t = 0, rma.size - 1 do ctx.into[t] = rma.buffer(rma.opt.size, "u8") end
    ctx.win:fence("noprecede")
  end,
  run = function(ctx)
    for t = 0, rma.size - 1 do
      if t ~= rma.rank then ctx.win:get(ctx.into[t], t, 0) end
    end
    ctx.win:fence("nosucceed")
  end,
  check = function(ctx)
    for t = 0, rma.size - 1 do
      if t ~= rma.rank then
        rma.expect_eq(ctx.into[t], rma.buffer(rma.opt.size, "u8"):iota(t * 37 + 1),
                      "data got from rank " .. t)
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local links = rma.size * (rma.size - 1)
    return counts.with_epoch({ get = links, get_resp = links }, "fence", counts.all_pairs())
  end,
}
