-- Non-contiguous RMA beside contiguous: rank 0 moves `size` bytes of i64 to or from rank 1
-- in blocks of `block` bytes laid out at the target as `layout` says (the origin buffer is
-- contiguous), one op per lock-unlock epoch:
--   contiguous  the plain op of the same bytes (the baseline)
--   vector      type_vector: blocks every other block
--   indexed     type_indexed: blocks at irregular gaps (1, 2 or 3 blocks apart)
--   subarray    type_subarray: the left half of each row of a rows x (2 * block) array
-- Benchmark it with
--   rmabench bench lua_scripts/bench/noncontig.lua -o layout=vector -o block=64 --sizes 1M
-- or the whole matrix with suites/noncontig.lua; run as a case it checks the bytes.
local common = require("common")

local function blocks() return rma.opt.size // rma.opt.block end
local function per_block() return rma.opt.block // 8 end  -- i64 elements

-- The target layout and the window bytes it spans.
local function target_layout()
  local n, b, layout = blocks(), per_block(), rma.opt.layout
  if layout == "contiguous" then return nil, n * b * 8 end
  if layout == "vector" then return rma.type_vector(n, b, 2 * b, "i64"), 2 * n * b * 8 end
  if layout == "indexed" then
    local lens, displs, at = {}, {}, 0
    for i = 1, n do
      lens[i], displs[i] = b, at
      at = at + b * (1 + (i % 3) + 1)
    end
    return rma.type_indexed(lens, displs, "i64"), at * 8
  end
  if layout == "subarray" then
    return rma.type_subarray({n, 2 * b}, {n, b}, {0, 0}, "c", "i64"), 2 * n * b * 8
  end
  rma.fail("unknown layout '" .. layout .. "'")
end

return {
  ranks = 2,
  options = {
    op = {"put | get | accumulate", "put"},
    layout = {"contiguous | vector | indexed | subarray", "vector"},
    block = {"bytes per block (a multiple of 8)", 64},
    size = {"bytes per operation (a multiple of block)", 65536},
  },
  setup = function(ctx)
    if rma.size < 2 then rma.skip("needs an origin and a target") end
    if rma.opt.block % 8 ~= 0 or rma.opt.size % rma.opt.block ~= 0 then
      rma.fail("noncontig: block must be a multiple of 8 and size a multiple of block")
    end
    local t, span = target_layout()
    ctx.layout = t and { target_type = t } or nil
    ctx.win = rma.window{ size = span }
    ctx.data = rma.buffer(rma.opt.size // 8, "i64"):iota(1)
  end,
  run = function(ctx)
    if rma.rank ~= 0 then return end
    local w, op = ctx.win, rma.opt.op
    w:lock(1, "exclusive")
    if op == "put" then w:put(ctx.data, 1, 0, ctx.layout)
    elseif op == "get" then w:get(ctx.data, 1, 0, ctx.layout)
    elseif op == "accumulate" then w:accumulate(ctx.data, 1, 0, "replace", ctx.layout)
    else rma.fail("noncontig: op is put, get or accumulate") end
    w:unlock(1)
  end,
  check = function(ctx)
    -- The target's first block holds the first block of data after any put or accumulate.
    if rma.rank == 1 and rma.opt.op ~= "get" then
      local first = ctx.win:local_buffer("i64"):sub(0, per_block())
      rma.expect_eq(first, rma.buffer(per_block(), "i64"):iota(1), "the first block arrived")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    -- The am path carries a derived op as the contiguous op of the same bytes; a layout's
    -- description rides in the same packet, so near the eager limit the two may differ.
    -- An indexed type's description grows with its blocks: past half a packet the op goes
    -- as pieces, a packet each (docs/datatypes.md), so nothing is declared for it.
    local bytes = rma.opt.size
    if math.abs(bytes - rma.eager_limit) < 1024 or rma.opt.layout == "indexed" then return nil end
    return { total = common.am_messages(rma.opt.op, "lock", bytes) }
  end,
}
