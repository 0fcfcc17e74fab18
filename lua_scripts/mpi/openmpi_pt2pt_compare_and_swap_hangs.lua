-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with osc/pt2pt
-- never completes an epoch in which one origin has issued a few hundred MPI_Compare_and_swap
-- with result buffers to one target: rank 0 issues `count` CAS (i -> i + 1 on one 64-bit
-- integer) to rank 1 under fence; both ranks stay in the closing MPI_Win_fence for good (a
-- `deadlock`). The target answers each CAS with a blocking send of the old value from inside
-- the progress engine (ompi_osc_pt2pt_cswap_start, osc_pt2pt_data_move.c); once that send
-- cannot complete at once, its wait is not the first waiter, and the thread that would have
-- to progress it is the same one, further down its own stack. gdb on rank 1: MPI_Win_fence ->
-- ompi_coll_base_reduce_scatter_block_intra_butterfly -> ompi_request_default_wait ->
-- ompi_sync_wait_mt -> opal_progress -> ompi_osc_pt2pt_process_receive -> mca_pml_ob1_send ->
-- ompi_sync_wait_mt -> pthread_cond_wait. Deadlocks in 10 of 10 runs here; 128 CAS pass, 160
-- hang; the same under a lock epoch (in the closing MPI_Win_unlock). The conformance case
-- atomics/compare_and_swap_ops (form=buffer, fence or pscw, np=2: 96 CAS from each rank to
-- the other) meets it as well.
--
--   rmabench run lua_scripts/mpi/openmpi_pt2pt_compare_and_swap_hangs.lua --impl openmpi:osc=pt2pt --timeout 10   deadlock: both in MPI_Win_fence
--   ... -o count=64 --impl openmpi:osc=pt2pt; --impl mpich; the reference                                           pass
--   ... --impl openmpi (rdma): crash by its own CAS defect (openmpi_rdma_compare_and_swap.lua)
return {
  ranks = 2,
  options = { count = {"compare_and_swaps in the epoch", 512} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 16 }  -- 16: not MPICH's defect 1 (8-byte sizes)
    ctx.win:local_buffer("i64"):fill(0)
    ctx.res = rma.buffer(rma.opt.count, "i64")
    ctx.win:fence("noprecede")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      for i = 0, rma.opt.count - 1 do
        ctx.win:compare_and_swap(i, i + 1, 1, 0, "i64", ctx.res:sub(i, 1))
      end
    end
    ctx.win:fence()
  end,
  check = function(ctx)
    if rma.rank == 0 then
      for i = 0, rma.opt.count - 1 do
        if ctx.res:get(i) ~= i then
          rma.expect_eq(ctx.res:get(i), i, "compare_and_swap " .. i .. " found the previous one's value")
          break
        end
      end
    end
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer("i64"):get(0), rma.opt.count, "every compare_and_swap swapped")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
