-- contig_displ: a port of MPICH's test/mpi/rma/contig_displ.c (IBM's MPI once ignored the
-- displacement of a one-block indexed type and read the first element). Rank 0 gets, from
-- its own window of two ints {100, 200} under an exclusive lock, one int through the target
-- type indexed_block(1, {1}, i32): it must read 200. The window must be unchanged. Every
-- rank does the same on its own window (MPICH: rank 0 on MPI_COMM_SELF).
local tm = require("typemap")  -- the model of the indexed_block type

return {
  ranks = 1,
  setup = function(ctx)
    ctx.win = rma.window{ size = 8, disp_unit = 4, flavor = "create" }
    ctx.win:local_buffer("i32"):set(0, 100):set(1, 200)
  end,
  run = function(ctx)
    local t = rma.type_indexed_block(1, { 1 }, "i32")
    tm.expect_type(t, tm.indexed_block(1, { 1 }, "i32"), "indexed_block")
    ctx.val = rma.buffer(1, "i32")
    ctx.win:lock(rma.rank, "exclusive")
    ctx.win:get(ctx.val, rma.rank, 0, { target_type = t })
    ctx.win:unlock(rma.rank)
    t:free()
  end,
  check = function(ctx)
    rma.expect_eq(ctx.val:get(0), 200, "the second element, through the displacement")
    local mem = ctx.win:local_buffer("i32")
    rma.expect_eq(mem:get(0), 100, "window element 0 unchanged")
    rma.expect_eq(mem:get(1), 200, "window element 1 unchanged")
  end,
  teardown = function(ctx) ctx.win:free() end,
}
