-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 applies MPI_SUM
-- to 8- and 16-bit integers with saturating vector adds (its op/avx component) once an
-- accumulate carries a vector's worth of elements: 65535 + 1 stays 65535 on MPI_UINT16_T
-- (and 255 + 1 on u8, 32767 + 1 on i16, 127 + 1 on i8) where C's, and MPI's, sum wraps to 0
-- (to the type's minimum for the signed ones). A few elements (4 here with -o count=4) wrap
-- right; every one-sided component shows it (rdma, pt2pt, ucx), and with the launcher argument
-- `--mca op ^avx` (no vector ops) it passes.
--
--   rmabench run lua_scripts/mpi/openmpi_avx_sum_saturates.lua --impl openmpi:osc=pt2pt    fail: 65535 where 0
--   ... --impl openmpi (rdma), --impl openmpi:osc=ucx, -o dtype=u8                         fail
--   ... --mpi-arg '--mca op ^avx' --impl openmpi; -o count=4; --impl mpich; the reference  pass
return {
  ranks = 2,
  options = { dtype = {"u16 or u8", "u16"}, count = {"elements accumulated", 32} },
  setup = function(ctx)
    ctx.top = rma.opt.dtype == "u8" and 255 or 65535
    ctx.mem = rma.buffer(rma.opt.count, rma.opt.dtype):fill(ctx.top)
    ctx.win = rma.window{ flavor = "create", memory = ctx.mem }
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:accumulate(rma.buffer(rma.opt.count, rma.opt.dtype):fill(1), 1, 0, "sum")
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.mem:get(0), 0, ctx.top .. " + 1 wraps to 0 (element 0)")
      rma.expect_eq(ctx.mem:get(rma.opt.count - 1), 0, ctx.top .. " + 1 wraps to 0 (last element)")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
