-- Library defect reproducer (docs/conformance-mpi.md, defect 25): Debian's Open MPI 4.1.4,
-- osc/ucx, does nothing for MPI_Fetch_and_op with MPI_REPLACE on MPI_SHORT_INT (and on
-- MPI_LONG_INT and MPI_DOUBLE_INT: the pair types with padding) and returns success: the
-- target keeps its pair and the result buffer is never written. Rank 0 replaces
-- rank 1's first pair (10, 0) with (100, 0) under an exclusive lock and must get (10, 0)
-- back. (Also in C: MPI_Fetch_and_op(&value, &result, MPI_SHORT_INT, 1, 0, MPI_REPLACE, win)
-- on an MPI_Win_create window: the result keeps its 0xbb bytes.)
--
--   rmabench run lua_scripts/mpi/openmpi_ucx_fetch_and_op_short_int.lua --impl openmpi:osc=ucx   fail: target (10, 0), want (100, 0)
--   ... -o op=maxloc --impl openmpi:osc=ucx                                             pass
--   ... -o dtype=long_int, -o dtype=double_int --impl openmpi:osc=ucx                   fail
--   ... -o dtype=2int, -o dtype=float_int --impl openmpi:osc=ucx                        pass
--   ... --impl openmpi (rdma), --impl mpich, the reference on --path am and direct      pass
return {
  ranks = 2,
  options = {
    dtype = {"pair dtype", "short_int"},
    op = {"replace or maxloc", "replace"},
  },
  setup = function(ctx)
    local dt = rma.opt.dtype
    ctx.ext = rma.buffer(1, dt):bytes()
    ctx.win = rma.window{ flavor = "create", size = 2 * ctx.ext, disp_unit = ctx.ext }
    local mem = ctx.win:local_buffer(dt)
    mem:set(0, 10, 0)
    mem:set(1, 11, 1)
  end,
  run = function(ctx)
    local dt = rma.opt.dtype
    ctx.res = rma.buffer(1, dt)
    ctx.res:set(0, -1, -1)
    rma.barrier()
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:fetch_and_op({100, 0}, 1, 0, rma.opt.op, dt, ctx.res)
      ctx.win:unlock(1)
    end
    rma.barrier()
  end,
  check = function(ctx)
    local dt = rma.opt.dtype
    if rma.rank == 0 then
      local v, k = ctx.res:get(0)
      rma.expect(v == 10 and k == 0, string.format("result (%s, %s), want (10, 0)", v, k))
    else
      local mem = ctx.win:local_buffer(dt)
      local v, k = mem:get(0)
      rma.expect(v == 100 and k == 0, string.format("target (%s, %s), want (100, 0)", v, k))
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
