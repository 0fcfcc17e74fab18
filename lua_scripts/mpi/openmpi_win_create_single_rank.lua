-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with its default
-- one-sided component fails MPI_Win_create in a job of one rank with MPI_ERR_WIN ("invalid
-- window"), whatever the size; two ranks, or `--mca osc pt2pt`, create it.
--
--   rmabench run lua_scripts/mpi/openmpi_win_create_single_rank.lua --impl openmpi         error (WIN)
--   ... --impl openmpi:osc=pt2pt, --impl mpich, the reference, or -n 2 with any of them    pass
return {
  ranks = 1,
  setup = function(ctx)
    ctx.mem = rma.buffer(8, "i64"):fill(5)
    ctx.win = rma.window{ flavor = "create", memory = ctx.mem }
  end,
  run = function(ctx)
    ctx.win:lock(0, "exclusive")
    ctx.win:put(rma.buffer(1, "i64"):fill(9), 0, 8)
    ctx.win:unlock(0)
  end,
  check = function(ctx) rma.expect_eq(ctx.mem:get(1), 9, "a put to myself") end,
  teardown = function(ctx) ctx.win:free() end,
}
