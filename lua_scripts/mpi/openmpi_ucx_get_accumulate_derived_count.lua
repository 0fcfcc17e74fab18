-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with osc/ucx
-- applies only the first element of an MPI_Get_accumulate whose datatypes are derived and
-- whose count is more than 1: with dt = MPI_Type_contiguous(1, MPI_INT), count 4, MPI_SUM of
-- 1 into 10..13 leaves 11, 11, 12, 13 at the target (no error); the old values returned are
-- right. Count 1, plain MPI_INT, or one contiguous(4, MPI_INT) at the target are right; int,
-- long, short, double, signed char alike; MPI_Win_create and MPI_Win_allocate windows alike.
-- Rank 0 adds 1 to rank 1's four elements under an exclusive lock. (Also reproduced in C, the
-- same call.)
--
--   rmabench run lua_scripts/mpi/openmpi_ucx_get_accumulate_derived_count.lua --impl openmpi:osc=ucx   fail: target element 1: expected 12, got 11
--   ... -o flavor=allocate, -o dtype=f64 --impl openmpi:osc=ucx                                       fail
--   ... -o count=1, -o derived=false --impl openmpi:osc=ucx                                           pass
--   ... --impl openmpi:osc=pt2pt, --impl mpich, the reference                                         pass
return {
  ranks = 2,
  options = { flavor = {"create or allocate", "create"}, count = {"ints", 4},
              derived = {"contiguous(1, dtype) layouts (false: plain dtype)", true},
              dtype = {"element dtype", "i32"} },
  setup = function(ctx)
    ctx.win = rma.window{ flavor = rma.opt.flavor, size = rma.buffer(1, rma.opt.dtype):bytes() * rma.opt.count,
                          disp_unit = rma.buffer(1, rma.opt.dtype):bytes() }
    ctx.win:local_buffer(rma.opt.dtype):iota(10, 1)
  end,
  run = function(ctx)
    local n = rma.opt.count
    ctx.res = rma.buffer(n, rma.opt.dtype):fill(-1)
    rma.barrier()
    if rma.rank == 0 then
      local layout = {}
      local t
      if rma.opt.derived then
        t = rma.type_contiguous(1, rma.opt.dtype)
        layout = { origin_type = t, origin_count = n, result_type = t, result_count = n,
                   target_type = t, target_count = n }
      end
      ctx.win:lock(1, "exclusive")
      ctx.win:get_accumulate(rma.buffer(n, rma.opt.dtype):fill(1), ctx.res, 1, 0, "sum", layout)
      ctx.win:unlock(1)
      if t then t:free() end
    end
    rma.barrier()
  end,
  check = function(ctx)
    local n = rma.opt.count
    if rma.rank == 0 then
      for i = 0, n - 1 do rma.expect_eq(ctx.res:get(i), 10 + i, "old value " .. i .. " (result)") end
    else
      local mem = ctx.win:local_buffer(rma.opt.dtype)
      for i = 0, n - 1 do rma.expect_eq(mem:get(i), 11 + i, "target element " .. i) end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
