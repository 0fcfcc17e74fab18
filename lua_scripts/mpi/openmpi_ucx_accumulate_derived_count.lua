-- Library defect reproducer (docs/conformance-mpi.md, defect 26): Debian's Open MPI 4.1.4 with
-- osc/ucx applies only the first instance of an MPI_Accumulate's target type when the target
-- count is more than 1, and returns success: with the target type
-- MPI_Type_contiguous(1, MPI_INT) and count 4, MPI_SUM of 1 into 10..13 leaves 11, 11, 12, 13.
-- Defect 17 is the same in MPI_Get_accumulate. Rank 0 adds 1 to rank 1's four elements under
-- an exclusive lock (the origin is plain). (Also in C, the same call, to another rank and to
-- oneself; pairs resized to 12 bytes under MPI_MAXLOC alike.)
--
--   rmabench run lua_scripts/mpi/openmpi_ucx_accumulate_derived_count.lua --impl openmpi:osc=ucx   fail: target element 1: expected 12, got 11
--   ... -o count=1, -o derived=false --impl openmpi:osc=ucx                                     pass
--   ... --impl openmpi (rdma), --impl mpich, the reference                                     pass
return {
  ranks = 2,
  options = { count = {"ints", 4},
              derived = {"a contiguous(1, i32) target type (false: plain i32)", true} },
  setup = function(ctx)
    ctx.win = rma.window{ flavor = "create", size = 4 * rma.opt.count, disp_unit = 4 }
    ctx.win:local_buffer("i32"):iota(10, 1)
  end,
  run = function(ctx)
    local n = rma.opt.count
    rma.barrier()
    if rma.rank == 0 then
      local t = rma.opt.derived and rma.type_contiguous(1, "i32") or nil
      local layout = t and { target_type = t, target_count = n } or nil
      ctx.win:lock(1, "exclusive")
      ctx.win:accumulate(rma.buffer(n, "i32"):fill(1), 1, 0, "sum", layout)
      ctx.win:unlock(1)
      if t then t:free() end
    end
    rma.barrier()
  end,
  check = function(ctx)
    if rma.rank == 1 then
      local mem = ctx.win:local_buffer("i32")
      for i = 0, rma.opt.count - 1 do rma.expect_eq(mem:get(i), 11 + i, "target element " .. i) end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
