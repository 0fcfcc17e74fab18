-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with osc/pt2pt
-- applies an MPI_Accumulate (any op but MPI_REPLACE) at the wrong place when the target type
-- is one contiguous block whose lower bound is not where its data starts: here
-- resized(hindexed({4}, {8 bytes}, i32), lb 0, extent 32), data at bytes 8..24. The sums
-- land at bytes 0..16. The target's reduction (ompi_osc_base_process_op in
-- ompi/mca/osc/base/osc_base_obj_convert.c, v4.1.4) takes a fast path for a type whose data
-- is one contiguous block and offsets the window address by the type's lb
-- (ompi_datatype_get_extent) where the data starts at its true lb. MPI_REPLACE (copied with
-- the type), the same block without the resize (lb = true lb = 8), osc/rdma, osc/ucx, MPICH
-- and the reference are right. Rank 0 adds 100..103 to rank 1's eight zeros under an
-- exclusive lock. (Also reproduced in C: MPI_Accumulate(orig, 4, MPI_INT, 1, 0, 1, t,
-- MPI_SUM, win) on an MPI_Win_allocate window.)
--
--   rmabench run lua_scripts/mpi/openmpi_pt2pt_accumulate_target_lb.lua --impl openmpi:osc=pt2pt   fail: target element 0: expected 0, got 100
--   ... -o op=replace, -o form=hindexed --impl openmpi:osc=pt2pt                                  pass
--   ... --impl openmpi:osc=rdma, --impl openmpi:osc=ucx, --impl mpich, the reference              pass
return {
  ranks = 2,
  options = {
    op = {"accumulate op", "sum"},
    form = {"target type: resized (lb 0, data from byte 8) or hindexed (the block alone)", "resized"},
  },
  setup = function(ctx)
    ctx.win = rma.window{ size = 32, disp_unit = 4 }
    ctx.win:local_buffer("i32"):fill(0)
  end,
  run = function(ctx)
    rma.barrier()
    if rma.rank == 0 then
      local block = rma.type_hindexed({4}, {8}, "i32")
      local t = rma.opt.form == "resized" and rma.type_resized(block, 0, 32) or block
      ctx.win:lock(1, "exclusive")
      ctx.win:accumulate(rma.buffer(4, "i32"):iota(100), 1, 0, rma.opt.op, { target_type = t })
      ctx.win:unlock(1)
      if t ~= block then t:free() end
      block:free()
    end
    rma.barrier()
  end,
  check = function(ctx)
    if rma.rank ~= 1 then return end
    local mem = ctx.win:local_buffer("i32")
    for i = 0, 7 do
      local want = (i >= 2 and i < 6) and 98 + i or 0
      rma.expect_eq(mem:get(i), want, "target element " .. i)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
