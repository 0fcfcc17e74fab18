-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with its
-- default one-sided component, osc/rdma, over the shared-memory transport (btl/vader, whose
-- atomics are emulated) dies of SIGSEGV in MPI_Compare_and_swap — one CAS of one 64-bit
-- integer under an exclusive lock (backtrace: ompi_osc_rdma_compare_and_swap ->
-- mca_btl_vader_emu_acswap -> mca_btl_vader_send). To self or to a peer alike.
--
--   rmabench run lua_scripts/mpi/openmpi_rdma_compare_and_swap.lua --impl openmpi     crash (SIGSEGV)
--   ... --impl openmpi:osc=pt2pt, --impl mpich, the reference                          pass
return {
  name = "openmpi-rdma-compare-and-swap",
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
