-- Library defect reproducer (docs/conformance-mpi.md): Debian's MPICH 4.0.2 applies MPI_MIN and
-- MPI_MAX to MPI_UINT8_T and MPI_UINT16_T as if they were signed: min(200, 100) stays 200 and
-- max(1, 255) stays 1 in an MPI_Fetch_and_op (the same in MPI_Accumulate and
-- MPI_Get_accumulate), on any window flavor and without the shared-memory path.
--
--   rmabench run lua_scripts/mpi/mpich_unsigned_min_max.lua --impl mpich        fail
--   ... -o dtype=u16 --impl mpich                                               fail
--   ... --impl openmpi:osc=pt2pt, the reference                                 pass
return {
  ranks = 2,
  options = { dtype = {"u8 or u16", "u8"} },
  setup = function(ctx)
    ctx.mem = rma.buffer(2, rma.opt.dtype)
    ctx.mem:set(0, 200):set(1, 1)
    ctx.win = rma.window{ flavor = "create", memory = ctx.mem }
    ctx.top = rma.opt.dtype == "u8" and 255 or 65535
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.old_min = ctx.win:fetch_and_op(100, 1, 0, "min", rma.opt.dtype)
      ctx.old_max = ctx.win:fetch_and_op(ctx.top, 1, 1, "max", rma.opt.dtype)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.mem:get(0), 100, "min(200, 100)")
      rma.expect_eq(ctx.mem:get(1), ctx.top, "max(1, " .. ctx.top .. ")")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
