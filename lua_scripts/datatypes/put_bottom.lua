-- put_bottom: a port of MPICH's test/mpi/rma/put_bottom.c. Every rank puts a sub_x × sub_y
-- patch of its x × y matrix of doubles into its right neighbour's window under an exclusive
-- lock, `iterations` times, moving bytes: the origin an hindexed type of byte blocks (one
-- row's sub_x doubles each) and the target an indexed_block type of the same byte blocks.
-- MPICH builds the origin from absolute addresses and passes MPI_BOTTOM; there is no
-- address space here, so its displacements are relative to the origin buffer, the same type
-- map. The window, which started at 1 + its own rank, must hold 1 + left neighbour in the
-- patch and keep its own value everywhere else (MPICH's patch is the whole matrix, 1024 ×
-- 1024, -o full=true; the default leaves gaps around a smaller patch).
local strided = require("strided")  -- the whole-matrix check
local tm = require("typemap")       -- the models the byte types are compared with

local function dims()
  if rma.opt.full then return 1024, 1024, 1024, 1024 end
  return rma.opt.x, rma.opt.y, rma.opt.sub_x, rma.opt.sub_y
end

return {
  ranks = 2,
  options = {
    x = {"row length (elements)", 64}, y = {"rows", 64},
    sub_x = {"patch columns", 48}, sub_y = {"patch rows", 40},
    iterations = {"puts per rank", 10},
    full = {"MPICH's size: 1024 x 1024, the patch the whole matrix", false},
  },
  setup = function(ctx)
    local x, y = dims()
    ctx.win = rma.window{ size = x * y * 8, flavor = "create" }
    ctx.win:local_buffer("f64"):fill(1.0 + rma.rank)
    ctx.src = rma.buffer(x * y, "f64"):fill(1.0 + rma.rank)
  end,
  run = function(ctx)
    local x, _, sx, sy = dims()
    local _, peer = strided.neighbours()
    for _ = 1, rma.opt.iterations do
      local idx_loc, blk_len, idx_rem = {}, {}, {}
      for j = 0, sy - 1 do
        idx_loc[#idx_loc + 1] = j * x * 8   -- bytes from the origin buffer (MPICH: addresses)
        idx_rem[#idx_rem + 1] = j * x * 8   -- bytes (indexed_block of u8: one unit a byte)
        blk_len[#blk_len + 1] = sx * 8
      end
      local src = rma.type_hindexed(blk_len, idx_loc, "u8")
      local dst = rma.type_indexed_block(sx * 8, idx_rem, "u8")
      tm.expect_type(src, tm.hindexed(blk_len, idx_loc, "u8"), "origin type")
      tm.expect_type(dst, tm.indexed_block(sx * 8, idx_rem, "u8"), "target type")
      ctx.win:lock(peer, "exclusive")
      ctx.win:put(ctx.src, peer, 0, { origin_type = src, target_type = dst })
      ctx.win:unlock(peer)
      src:free(); dst:free()
    end
  end,
  check = function(ctx)
    local x, y, sx, sy = dims()
    local left = strided.neighbours()
    ctx.win:lock(rma.rank, "exclusive")
    strided.check(ctx.win:local_buffer("f64"), x, y, sx, sy, 1.0 + left, 1.0 + rma.rank,
                  "window after the puts")
    ctx.win:unlock(rma.rank)
  end,
  teardown = function(ctx) ctx.win:free() end,
}
