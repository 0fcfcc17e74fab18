-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with osc/pt2pt
-- corrupts the target's heap, and returns the wrong old values, on an MPI_Get_accumulate
-- whose data is too large for one eager fragment (above about 8 KiB) when the target type is
-- not contiguous. The target of such a "long" get_accumulate (ompi_osc_gacc_long_start in
-- ompi/mca/osc/pt2pt/osc_pt2pt_data_move.c, v4.1.4) allocates a buffer of the data's packed
-- size but receives the origin's data into it with the target's (count, datatype), which
-- spans the type's extent: here vector(4096, 1, 2, i32), 16 KiB of data over 32 KiB; and it
-- sends the old values back from the window as contiguous elements, ignoring the target
-- type. Rank 1 then dies in the allocator ("malloc(): invalid size", SIGABRT) or returns the
-- window's first elements (10, 11, 12, ...) for the vector's (10, 12, 14, ...). The same call
-- with 64 elements (eager) or a contiguous target type is right, and so are osc/rdma (on an
-- MPI_Win_allocate window, see openmpi_rdma_get_accumulate_derived.lua), osc/ucx, MPICH and
-- the reference. Rank 0 adds 1 to every other i32 of rank 1's window under an exclusive lock.
--
--   rmabench run lua_scripts/mpi/openmpi_pt2pt_long_get_accumulate_derived_target.lua --impl openmpi:osc=pt2pt   crash (rank 1, SIGABRT) or fail: old value 1: expected 12, got 11
--   ... -o count=64, -o form=contiguous --impl openmpi:osc=pt2pt                                                   pass
--   ... -o flavor=allocate --impl openmpi:osc=rdma, --impl openmpi:osc=ucx, --impl mpich, the reference            pass
return {
  ranks = 2,
  options = {
    count = {"i32 elements (4096: 16 KiB, a long message)", 4096},
    form = {"target type: vector (every other element) or contiguous", "vector"},
    flavor = {"window flavor", "create"},
  },
  setup = function(ctx)
    local n = rma.opt.count
    ctx.stride = rma.opt.form == "vector" and 2 or 1
    ctx.win = rma.window{ flavor = rma.opt.flavor, size = 4 * n * ctx.stride, disp_unit = 4 }
    ctx.win:local_buffer("i32"):iota(10)
    ctx.res = rma.buffer(n, "i32"):fill(-1)
  end,
  run = function(ctx)
    local n = rma.opt.count
    rma.barrier()
    if rma.rank == 0 then
      local t = rma.opt.form == "vector" and rma.type_vector(n, 1, 2, "i32")
                or rma.type_contiguous(n, "i32")
      ctx.win:lock(1, "exclusive")
      ctx.win:get_accumulate(rma.buffer(n, "i32"):fill(1), ctx.res, 1, 0, "sum", { target_type = t })
      ctx.win:unlock(1)
      t:free()
    end
    rma.barrier()
  end,
  check = function(ctx)
    local n, s = rma.opt.count, ctx.stride
    if rma.rank == 0 then
      for i = 0, n - 1 do
        if not rma.expect_eq(ctx.res:get(i), 10 + s * i, "old value " .. i) then break end
      end
    else
      local mem = ctx.win:local_buffer("i32")
      for i = 0, n * s - 1 do
        local want = 10 + i + ((i % s == 0) and 1 or 0)
        if not rma.expect_eq(mem:get(i), want, "target element " .. i) then break end
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
