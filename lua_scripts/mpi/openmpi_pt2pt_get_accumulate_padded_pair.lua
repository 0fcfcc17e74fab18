-- Library defect reproducer (docs/conformance-mpi.md, defect 27): Debian's Open MPI 4.1.4 with
-- osc/pt2pt corrupts the target's heap on an MPI_Get_accumulate of two or more MPI_LONG_INT
-- (or MPI_DOUBLE_INT) to another rank, plain types, MPI_REPLACE: the target sizes its receive
-- buffer by the packed data (12 bytes a pair) and unpacks into it at the pair's extent (16),
-- valgrind: "Invalid write ... 0 bytes after a block of size 24" at count 2. The target's data
-- is right; it dies later (free(): invalid pointer, SIGABRT, or SIGSEGV in MPI_Win_free).
-- The cause is upstream's open-mpi/ompi#1666 (pair types packed without their padding), which
-- pt2pt's MINLOC/MAXLOC refusal guards only for accumulates of the plain types. Rank 0
-- replaces rank 1's pairs (10 + i, i) with (100 + i, i) and must get the old ones back.
-- (Also in C, the same call.)
--
--   rmabench run lua_scripts/mpi/openmpi_pt2pt_get_accumulate_padded_pair.lua --impl openmpi:osc=pt2pt   fail: rank 1 killed
--   ... -o count=1, -o dtype=2int --impl openmpi:osc=pt2pt                                     pass
--   ... --impl mpich, the reference on --path am and direct                                    pass
--   ... --impl openmpi (rdma)           fail, no crash: result 1 (47244640256, 0), the old pairs
--       misplaced as in defect 24 on MPI_SHORT_INT (not cut down further)
return {
  ranks = 2,
  options = { count = {"pairs", 2}, dtype = {"pair dtype", "long_int"} },
  setup = function(ctx)
    local dt, n = rma.opt.dtype, rma.opt.count
    local ext = rma.buffer(1, dt):bytes()
    ctx.win = rma.window{ flavor = "create", size = ext * n, disp_unit = ext }
    local mem = ctx.win:local_buffer(dt)
    for i = 0, n - 1 do mem:set(i, 10 + i, i) end
  end,
  run = function(ctx)
    local dt, n = rma.opt.dtype, rma.opt.count
    ctx.res = rma.buffer(n, dt)
    rma.barrier()
    if rma.rank == 0 then
      local origin = rma.buffer(n, dt)
      for i = 0, n - 1 do origin:set(i, 100 + i, i) end
      ctx.win:lock(1, "exclusive")
      ctx.win:get_accumulate(origin, ctx.res, 1, 0, "replace")
      ctx.win:unlock(1)
    end
    rma.barrier()
  end,
  check = function(ctx)
    local dt, n = rma.opt.dtype, rma.opt.count
    local buf, base = ctx.res, 10
    if rma.rank == 1 then buf, base = ctx.win:local_buffer(dt), 100 end
    if rma.rank > 1 then return end
    for i = 0, n - 1 do
      local v, k = buf:get(i)
      rma.expect(v == base + i and k == i, string.format("%s %d: (%s, %s), want (%d, %d)",
        rma.rank == 0 and "result" or "target", i, tostring(v), tostring(k), base + i, i))
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
