-- strided_putget_indexed: a port of MPICH's test/mpi/rma/strided_putget_indexed.c. Every rank
-- puts a sub_x × sub_y patch of its x × y matrix of doubles (all 1 + rank) into its right
-- neighbour's window in one exclusive lock epoch, then gets it back into another matrix in a
-- second epoch, `iterations` times, both sides one indexed type (a block of sub_x per row).
-- The window, filled with -1 first, must hold 1 + left neighbour in the patch and -1
-- everywhere else; the matrix the get filled (not checked by MPICH) 1 + rank in the patch and
-- its -2 elsewhere. The window is made over memory of its own (MPI_Win_create over
-- MPI_Alloc_mem). MPICH's sizes are the defaults (8 × 1024, patch 8 × 255).
local strided = require("strided")  -- the patch type and the whole-matrix check

return {
  ranks = 4,
  options = {
    flavor = {"create (the original) | shared (MPICH's strided_putget_indexed_shared.c)", "create"},
    x = {"row length (elements)", 8}, y = {"rows", 1024},
    sub_x = {"patch columns", 8}, sub_y = {"patch rows", 255},
    iterations = {"put + get rounds", 10},
  },
  setup = function(ctx)
    local o = rma.opt
    local ok, win = pcall(rma.window, { size = o.x * o.y * 8, flavor = o.flavor })
    if not ok then
      if type(win) == "table" and win.class == "RMA_FLAVOR" then
        rma.skip("no " .. o.flavor .. " windows here: " .. tostring(win.message))
      end
      error(win, 0)
    end
    ctx.win = win
    ctx.win:local_buffer("f64"):fill(-1.0)
    ctx.src = rma.buffer(o.x * o.y, "f64"):fill(1.0 + rma.rank)
    ctx.dst = rma.buffer(o.x * o.y, "f64"):fill(-2.0)
  end,
  run = function(ctx)
    local o = rma.opt
    local _, peer = strided.neighbours()
    for _ = 1, o.iterations do
      local src_type = strided.indexed_patch(o.x, o.sub_x, o.sub_y, "origin type")
      local dst_type = strided.indexed_patch(o.x, o.sub_x, o.sub_y, "target type")
      ctx.win:lock(peer, "exclusive")
      ctx.win:put(ctx.src, peer, 0, { origin_type = src_type, target_type = dst_type })
      ctx.win:unlock(peer)
      ctx.win:lock(peer, "exclusive")
      ctx.win:get(ctx.dst, peer, 0, { origin_type = src_type, target_type = dst_type })
      ctx.win:unlock(peer)
      src_type:free(); dst_type:free()
    end
  end,
  check = function(ctx)
    local o = rma.opt
    local left = strided.neighbours()
    ctx.win:lock(rma.rank, "exclusive")
    strided.check(ctx.win:local_buffer("f64"), o.x, o.y, o.sub_x, o.sub_y, 1.0 + left, -1.0,
                  "window after the puts")
    ctx.win:unlock(rma.rank)
    strided.check(ctx.dst, o.x, o.y, o.sub_x, o.sub_y, 1.0 + rma.rank, -2.0, "matrix the get filled")
  end,
  teardown = function(ctx) ctx.win:free() end,
}
