-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with its
-- default one-sided component, osc/rdma, over the shared-memory transport (btl/vader, whose
-- atomics are emulated) dies of SIGSEGV in MPI_Compare_and_swap — one CAS of one 64-bit
-- integer under an exclusive lock (backtrace: ompi_osc_rdma_compare_and_swap ->
-- mca_btl_vader_emu_acswap -> mca_btl_vader_send). The process that dies is the one serving
-- the emulated atomic: the target (rank 1 here, while it waits in a barrier), or the caller
-- for a CAS to itself.
--
--   rmabench run lua_scripts/mpi/openmpi_rdma_compare_and_swap.lua --impl openmpi   crash: rank 1 SIGSEGV
--   ... --impl openmpi:osc=pt2pt, the reference                                      pass
--   ... --impl mpich: fails by MPICH's own defect (mpich_allocate_get_reads_origin.lua), passes
--       with --mpi-env MPIR_CVAR_NOLOCAL=1
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
    ctx.win:local_buffer("i64"):fill(0)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.old = ctx.win:compare_and_swap(0, 7, 1, 0, "i64")
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then rma.expect_eq(ctx.old, 0, "compare_and_swap returned the old value") end
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer("i64"):get(0), 7, "compare_and_swap swapped")
    end
  end,
}
