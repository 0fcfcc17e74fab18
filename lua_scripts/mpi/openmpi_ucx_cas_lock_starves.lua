-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with osc/ucx,
-- intermittent: four ranks take turns at a compare_and_swap spin lock on a word at rank 0
-- (take: MPI_Compare_and_swap(0 -> rank + 1) until it returns 0; release:
-- MPI_Fetch_and_op(MPI_REPLACE, 0)), all inside lock_all. Now and then the ranks other than
-- 0 stay inside their MPI_Compare_and_swap / MPI_Fetch_and_op to rank 0 for good (the rank
-- holding the spin lock in its releasing MPI_Fetch_and_op), while rank 0 keeps cycling
-- through its own compare_and_swap on itself, which returns every time: the case ends as a
-- `timeout` (rank 0 "running script code", the others blocked in those calls). osc/ucx
-- 4.1.4 serializes every compare_and_swap and fetch_and_op on a target through a lock word
-- in that target's window state, taken by retrying a remote compare-and-swap until it reads
-- "unlocked" and released by a swap (start_atomicity / end_atomicity, osc_ucx_comm.c); gdb
-- shows the blocked ranks in that call's wait loop (ompi_osc_ucx_compare_and_swap /
-- ompi_osc_ucx_fetch_and_op -> sched_yield of the progress loop), while rank 0 takes and
-- frees the same lock word for each of its own CAS on itself, back to back. Whether their
-- atomics on the lock word are starved or never served was not established. MPI's RMA
-- calls are nonblocking: none may wait forever on other ranks' activity.
-- One epoch of 20 turns per rank (atomics/cas_mutex np=4 iterations=20) hung in 1 run of
-- 10 here (and 400 turns in one epoch passed 3 of 3: it is the start of the contention, not
-- its length); the script repeats `epochs` such epochs, each after a barrier so that all
-- ranks start contending together: with 50 epochs 2 runs of 3 hung, with 300 10 of 10 (each
-- within a second of its start; a run that passes takes 1.6 s on pt2pt, 48 s on MPICH).
--
--   rmabench run lua_scripts/mpi/openmpi_ucx_cas_lock_starves.lua --impl openmpi:osc=ucx --timeout 15   timeout
--   ... --impl openmpi:osc=pt2pt; --impl mpich; the reference                                          pass
return {
  ranks = 4,
  options = { epochs = {"lock_all epochs, each after a barrier", 300},
              turns = {"spin lock turns per rank and epoch", 20} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 16 }  -- [0] the lock word (16 bytes: not MPICH's defect 1)
    ctx.win:local_buffer("i64"):fill(0)  -- MPI_Win_allocate's memory starts undefined
  end,
  run = function(ctx)
    local me = rma.rank + 1
    for _ = 1, rma.opt.epochs do
      rma.barrier()
      ctx.win:lock_all()
      for _ = 1, rma.opt.turns do
        while ctx.win:compare_and_swap(0, me, 0, 0, "i64") ~= 0 do end
        local was = ctx.win:fetch_and_op(0, 0, 0, "replace", "i64")
        rma.expect_eq(was, me, "the lock word held my id until I released it")
      end
      ctx.win:unlock_all()
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then rma.expect_eq(ctx.win:local_buffer("i64"):get(0), 0, "lock word released") end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
