-- strided_acc_subarray: a port of MPICH's test/mpi/rma/strided_acc_subarray.c. Every rank
-- accumulates (sum) the sub_x × sub_y corner of its x × y matrix of doubles into its right
-- neighbour's window, `iterations` times, each under an exclusive lock, origin and target
-- described by a C-order subarray type; the window, filled with -1 first, must then hold
-- -1 + iterations × (left neighbour's rank + 1) in the corner and -1 everywhere else. MPICH's
-- sizes (1024 × 1024, corner 512 × 512, 10 iterations) with -o full=true.
local strided = require("strided")  -- the whole-matrix check
local tm = require("typemap")       -- the model the subarray type is compared with

local function dims()
  if rma.opt.full then return 1024, 1024, 512, 512 end
  return rma.opt.x, rma.opt.y, rma.opt.x // 2, rma.opt.y // 2
end

return {
  ranks = 2,
  options = {
    x = {"row length (elements); the corner is half of it", 32}, y = {"rows", 32},
    iterations = {"accumulates per rank", 10},
    full = {"MPICH's size: 1024 x 1024, corner 512 x 512", false},
  },
  setup = function(ctx)
    local x, y = dims()
    ctx.win = rma.window{ size = x * y * 8, flavor = "create" }
    ctx.win:local_buffer("f64"):fill(-1.0)
    ctx.src = rma.buffer(x * y, "f64"):fill(1.0 + rma.rank)
  end,
  run = function(ctx)
    local x, y, sx, sy = dims()
    local _, peer = strided.neighbours()
    for _ = 1, rma.opt.iterations do
      -- sizes are {rows, columns} in C order: the x × y matrix is y rows of x.
      local src = rma.type_subarray({ y, x }, { sy, sx }, { 0, 0 }, "c", "f64")
      local dst = rma.type_subarray({ y, x }, { sy, sx }, { 0, 0 }, "c", "f64")
      tm.expect_type(dst, tm.subarray({ y, x }, { sy, sx }, { 0, 0 }, "c", "f64"), "subarray")
      ctx.win:lock(peer, "exclusive")
      ctx.win:accumulate(ctx.src, peer, 0, "sum", { origin_type = src, target_type = dst })
      ctx.win:unlock(peer)
      src:free(); dst:free()
    end
  end,
  check = function(ctx)
    local x, y, sx, sy = dims()
    local left = strided.neighbours()
    ctx.win:lock(rma.rank, "exclusive")
    strided.check(ctx.win:local_buffer("f64"), x, y, sx, sy,
                  -1.0 + (1.0 + left) * rma.opt.iterations, -1.0, "window after the accumulates")
    ctx.win:unlock(rma.rank)
  end,
  teardown = function(ctx) ctx.win:free() end,
}
