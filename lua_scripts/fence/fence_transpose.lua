-- Transpose under fence: an n × n matrix of blocks (b elements each) is distributed by rows,
-- rank i holding row i. In one fence epoch rank i puts its block (i, j) into rank j's
-- window at column position i, so that afterwards rank j holds column j of the matrix — row
-- j of the transpose. The window's disp_unit is the block size, so displacements count
-- blocks: the target scales them, not the origin. Every rank writes into every window
-- (its own included), each into its own place: no conflict. Messages (am): one put per
-- ordered pair of distinct ranks (and its cts when a block is above the eager limit) and
-- the closing fence's exchange (counts.fence).
local counts = require("counts")  -- a fence epoch's E(n), docs/message-counts.md

-- The value of element k of block (i, j).
local function a(i, j, k) return i * 1000000 + j * 1000 + k end

return {
  ranks = 4,
  options = { block = {"i64 elements per block", 8} },
  setup = function(ctx)
    local n, b = rma.size, rma.opt.block
    ctx.win = rma.window{ size = n * b * 8, disp_unit = b * 8 }
    ctx.row = rma.buffer(n * b, "i64")
    for j = 0, n - 1 do
      for k = 0, b - 1 do ctx.row:set(j * b + k, a(rma.rank, j, k)) end
    end
    ctx.win:fence("noprecede")
  end,
  run = function(ctx)
    local b = rma.opt.block
    for j = 0, rma.size - 1 do
      ctx.win:put(ctx.row:sub(j * b, b), j, rma.rank)
    end
    ctx.win:fence("nosucceed")
  end,
  check = function(ctx)
    local n, b = rma.size, rma.opt.block
    local want = rma.buffer(n * b, "i64")
    for i = 0, n - 1 do
      for k = 0, b - 1 do want:set(i * b + k, a(i, rma.rank, k)) end
    end
    rma.expect_eq(ctx.win:local_buffer("i64"), want, "column " .. rma.rank .. " of the matrix")
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local links = rma.size * (rma.size - 1)
    -- A block above the eager limit goes by rendezvous: the target's cts comes first.
    local cts = 8 * rma.opt.block > rma.eager_limit and links or 0
    return counts.with_epoch({ put = links, cts = cts }, "fence", counts.all_pairs())
  end,
}
