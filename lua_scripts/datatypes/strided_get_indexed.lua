-- strided_get_indexed: a port of MPICH's test/mpi/rma/strided_get_indexed.c. Every rank gets
-- a sub_x × sub_y patch of its right neighbour's x × y matrix of doubles (all 1 + that
-- rank) into the same patch of a local matrix filled with -1, under an exclusive lock, both
-- sides one indexed type (a block of sub_x per row); the local matrix must then hold
-- 1 + neighbour in the patch and -1 everywhere else, and the neighbour's window be unchanged.
-- MPICH's sizes are the defaults (8 × 1024, patch 8 × 256).
local strided = require("strided")  -- the patch type and the whole-matrix check

return {
  ranks = 2,
  options = {
    x = {"row length (elements)", 8}, y = {"rows", 1024},
    sub_x = {"patch columns", 8}, sub_y = {"patch rows", 256},
  },
  setup = function(ctx)
    local o = rma.opt
    ctx.win = rma.window{ size = o.x * o.y * 8, flavor = "create" }
    ctx.win:local_buffer("f64"):fill(1.0 + rma.rank)
    ctx.loc = rma.buffer(o.x * o.y, "f64"):fill(-1.0)
  end,
  run = function(ctx)
    local o = rma.opt
    local _, peer = strided.neighbours()
    local loc_type = strided.indexed_patch(o.x, o.sub_x, o.sub_y, "local type")
    local rem_type = strided.indexed_patch(o.x, o.sub_x, o.sub_y, "remote type")
    ctx.win:lock(peer, "exclusive")
    ctx.win:get(ctx.loc, peer, 0, { origin_type = loc_type, target_type = rem_type })
    ctx.win:unlock(peer)
    loc_type:free(); rem_type:free()
  end,
  check = function(ctx)
    local o = rma.opt
    local _, peer = strided.neighbours()
    strided.check(ctx.loc, o.x, o.y, o.sub_x, o.sub_y, 1.0 + peer, -1.0, "local matrix after the get")
    strided.check(ctx.win:local_buffer("f64"), o.x, o.y, o.x, o.y, 1.0 + rma.rank, nil,
                  "window unchanged by the neighbour's get")
  end,
  teardown = function(ctx) ctx.win:free() end,
}
