-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with its default
-- one-sided component, osc/rdma, ignores MPI_LOR, MPI_LAND and MPI_LXOR in MPI_Accumulate (and
-- MPI_Get_accumulate) on a window made by MPI_Win_create or MPI_Win_create_dynamic: the
-- element keeps its value, without an error. The same accumulate on an MPI_Win_allocate
-- window, and the arithmetic and bitwise ops (sum, bor, max, replace) on any window, are right;
-- any integer width, under lock (shared or exclusive) or lock_all.
--
--   rmabench run lua_scripts/mpi/openmpi_rdma_logical_accumulate.lua --impl openmpi    fail: 1 expected, 0 found
--   ... -o op=land, -o op=lxor --impl openmpi                                           fail
--   ... --impl openmpi:osc=pt2pt, --impl mpich, the reference                           pass
return {
  ranks = 2,
  options = { op = {"lor, land or lxor", "lor"} },
  setup = function(ctx)
    ctx.mem = rma.buffer(1, "i64"):fill(rma.opt.op == "land" and 3 or 0)
    ctx.win = rma.window{ flavor = "create", memory = ctx.mem }
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:accumulate(rma.buffer(1, "i64"):fill(5), 1, 0, rma.opt.op)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      local before = rma.opt.op == "land" and 3 or 0
      rma.expect_eq(ctx.mem:get(0), rma.oracle(rma.opt.op, "i64", before, 5),
                    rma.opt.op .. "(" .. before .. ", 5) applied")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
