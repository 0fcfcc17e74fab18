-- strided_getacc_indexed: a port of MPICH's test/mpi/rma/strided_getacc_indexed.c. Every rank
-- writes a sub_x × sub_y patch of its x × y matrix of doubles (all 1 + rank) into its right
-- neighbour's window with get_accumulate(replace), one exclusive lock epoch, then reads it
-- back with get_accumulate(no_op) in a second epoch, `iterations` times, origin, result and
-- target all one indexed type (a block of sub_x per row). The window, filled with -1 first,
-- must hold 1 + left neighbour in the patch and -1 everywhere else; the no_op's result (not
-- checked by MPICH) must hold 1 + rank in the patch of the result matrix and its -2 elsewhere.
-- The window is made over memory of its own (MPI_Win_create over MPI_Alloc_mem). MPICH's sizes
-- are the defaults (8 × 1024, patch 1 × 2).
local strided = require("strided")  -- the patch type and the whole-matrix check

return {
  ranks = 4,
  options = {
    flavor = {"create (the original) | shared (MPICH's strided_getacc_indexed_shared.c)", "create"},
    x = {"row length (elements)", 8}, y = {"rows", 1024},
    sub_x = {"patch columns", 1}, sub_y = {"patch rows", 2},
    iterations = {"replace + no_op rounds", 10},
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
      local layout = { origin_type = src_type, result_type = src_type, target_type = dst_type }
      ctx.win:lock(peer, "exclusive")
      ctx.win:get_accumulate(ctx.src, ctx.dst, peer, 0, "replace", layout)
      ctx.win:unlock(peer)
      ctx.win:lock(peer, "exclusive")
      ctx.win:get_accumulate(ctx.src, ctx.dst, peer, 0, "no_op", layout)
      ctx.win:unlock(peer)
      src_type:free(); dst_type:free()
    end
  end,
  check = function(ctx)
    local o = rma.opt
    local left = strided.neighbours()
    ctx.win:lock(rma.rank, "exclusive")
    strided.check(ctx.win:local_buffer("f64"), o.x, o.y, o.sub_x, o.sub_y, 1.0 + left, -1.0,
                  "window after the get_accumulates")
    ctx.win:unlock(rma.rank)
    strided.check(ctx.dst, o.x, o.y, o.sub_x, o.sub_y, 1.0 + rma.rank, -2.0,
                  "result of the no_op read back")
  end,
  teardown = function(ctx) ctx.win:free() end,
}
