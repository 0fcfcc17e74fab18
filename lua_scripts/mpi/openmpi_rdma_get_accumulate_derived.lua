-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with its default
-- one-sided component, osc/rdma, returns wrong old values from MPI_Get_accumulate when the
-- datatypes are derived — even MPI_Type_contiguous(1, MPI_INT) — on a window made by
-- MPI_Win_create, for 32- and 64-bit integers: the result buffer receives garbage (0,
-- 33554432, 21908, ... for 10, 11, ...), while the target is updated right. The same call with
-- plain MPI_INT, on an MPI_Win_allocate window, or on short, double or signed char is right.
-- Rank 0 adds 1 to rank 1's four i32 (10..13) under an exclusive lock and must get 10..13
-- back. (Also reproduced in C: MPI_Get_accumulate(val, 4, dt, res, 4, dt, 1, 0, 4, dt,
-- MPI_SUM, win) with dt = contiguous(1, MPI_INT), under lock or fence; a derived target type
-- alone, contiguous(4, MPI_INT) with MPI_INT origin and result, fails the same way.)
--
--   rmabench run lua_scripts/mpi/openmpi_rdma_get_accumulate_derived.lua --impl openmpi   fail: old value 0 (result): expected 10, got 254270944
--   ... -o count=1, -o dtype=i64 --impl openmpi                                          fail
--   ... -o dtype=f64, -o derived=false --impl openmpi                                     pass
--   ... -o flavor=allocate --impl openmpi:osc=rdma                                        pass
--   ... --impl openmpi:osc=pt2pt, --impl mpich, the reference                            pass
--   ... --impl openmpi:osc=ucx                                                           fail, target side: see
--       openmpi_ucx_get_accumulate_derived_count.lua
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
