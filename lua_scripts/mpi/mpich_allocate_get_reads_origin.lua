-- Library defect reproducer (docs/conformance-mpi.md): Debian's MPICH 4.0.2 (ch4:ucx), ranks on
-- one host: an MPI_Get from a peer's window made by MPI_Win_allocate returns the origin's OWN
-- window memory, not the target's — under a shared or exclusive lock and under fence alike.
-- The same get on an MPI_Win_create window is right, and so is everything with
-- MPIR_CVAR_NOLOCAL=1 (no shared-memory path): the defect is in MPICH's shared-memory RMA for
-- allocated windows. What decides it is the window sizes: when a rank's size is not a multiple
-- of 16 bytes (8 here), every op to a higher rank — a get, an accumulate, a compare_and_swap,
-- and that rank's ops to itself — lands 8 bytes before its target address (here in rank 0's
-- own 8 bytes). With -o size=16 it passes.
--
--   rmabench run lua_scripts/mpi/mpich_allocate_get_reads_origin.lua --impl mpich         fail
--   ... -o size=24 --impl mpich                                                        fail
--   ... --impl mpich --mpi-env MPIR_CVAR_NOLOCAL=1, -o flavor=create, -o size=16,
--       --impl openmpi, ref                                                                pass
return {
  ranks = 2,
  options = { flavor = {"window flavor: allocate or create", "allocate"},
              size = {"bytes of each rank's window", 8} },
  setup = function(ctx)
    if rma.opt.flavor == "create" then
      ctx.mem = rma.buffer(8, "u8")
      ctx.win = rma.window{ flavor = "create", memory = ctx.mem }
    else
      ctx.win = rma.window{ size = rma.opt.size }
    end
    ctx.win:local_buffer():fill(rma.rank + 10)
    ctx.into = rma.buffer(8, "u8")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "shared")
      ctx.win:get(ctx.into, 1, 0)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then
      rma.expect_eq(ctx.into:get(0), 11, "the get read rank 1's window (10 would be my own)")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
