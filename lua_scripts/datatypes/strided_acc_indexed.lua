-- strided_acc_indexed: a port of MPICH's test/mpi/rma/strided_acc_indexed.c. Every rank
-- accumulates (sum) a sub_x × sub_y patch of its x × y matrix of doubles into its right
-- neighbour's window under an exclusive lock, both sides described by one indexed type
-- (a block of sub_x per row); the window, filled with -1 first, must then hold -1 plus the
-- left neighbour's value (1 + rank) in the patch and -1 everywhere else. `absolute` is
-- MPICH's ABSOLUTE build: the origin as an hindexed type of byte displacements (MPI_BOTTOM
-- there; here relative to the origin buffer, which has no address of its own).
local strided = require("strided")  -- the patch type and the whole-matrix check

return {
  ranks = 2,
  options = {
    x = {"row length (elements)", 16}, y = {"rows", 16},
    sub_x = {"patch columns", 8}, sub_y = {"patch rows", 8},
    absolute = {"origin as hindexed of byte displacements (MPICH's ABSOLUTE)", false},
  },
  setup = function(ctx)
    local o = rma.opt
    ctx.win = rma.window{ size = o.x * o.y * 8, flavor = "create" }
    ctx.win:local_buffer("f64"):fill(-1.0)
    ctx.src = rma.buffer(o.x * o.y, "f64"):fill(1.0 + rma.rank)
  end,
  run = function(ctx)
    local o = rma.opt
    local _, peer = strided.neighbours()
    local dst = strided.indexed_patch(o.x, o.sub_x, o.sub_y, "target type")
    local src = dst
    if o.absolute then
      local bl, d = strided.patch_blocks(o.x, o.sub_x, o.sub_y)
      for k = 1, #d do d[k] = d[k] * 8 end
      src = rma.type_hindexed(bl, d, "f64")
    end
    ctx.win:lock(peer, "exclusive")
    ctx.win:accumulate(ctx.src, peer, 0, "sum", { origin_type = src, target_type = dst })
    ctx.win:unlock(peer)
    if src ~= dst then src:free() end
    dst:free()
  end,
  check = function(ctx)
    local o = rma.opt
    local left = strided.neighbours()
    ctx.win:lock(rma.rank, "exclusive")
    strided.check(ctx.win:local_buffer("f64"), o.x, o.y, o.sub_x, o.sub_y,
                  -1.0 + (1.0 + left), -1.0, "window after the accumulate")
    ctx.win:unlock(rma.rank)
  end,
  teardown = function(ctx) ctx.win:free() end,
}
