-- Library defect reproducer (docs/conformance-mpi.md, defect 24): Debian's Open MPI 4.1.4 with
-- its default one-sided component, osc/rdma, does not apply an accumulate on MPI_SHORT_INT
-- (the pair type with a hole inside: value in bytes 0-1, index in 4-7) through a derived
-- target type, and returns no error: the target keeps its pairs. Rank 0 accumulates its
-- pairs (100 + i, i) into rank 1's (10 + i, i) under an exclusive lock, the target type
-- contiguous(1, MPI_SHORT_INT) x 3; each target pair must become (100 + i, i). (Also in C:
-- MPI_Accumulate(origin, 3, MPI_SHORT_INT, 1, 0, 3, t, MPI_MAXLOC, win), t that contiguous
-- type, on an MPI_Win_create window; and MPI_Get_accumulate with plain MPI_SHORT_INT there
-- returns (10, 0), (0, 11), (1, 786432) for (10, 0), (11, 1), (12, 2).)
--
--   rmabench run lua_scripts/mpi/openmpi_rdma_short_int_accumulate.lua --impl openmpi      fail: target 0: (10, 0), want (100, 0)
--   ... -o target=vector, -o flavor=allocate, -o op=minloc, -o op=replace                fail
--   ... -o call=get_accumulate                                                          fail (results and target)
--   ... -o call=get_accumulate -o target=plain                                          fail: result 1: (0, 11), want (11, 1)
--   ... -o target=plain; -o dtype=2int, long_int, float_int, double_int                 pass
--   ... --impl openmpi:osc=pt2pt                                                        fail (plain: refused, "MPI_SHORT_INT
--       datatype is currently unsupported for MPI_MINLOC/MPI_MAXLOC")
--   ... --impl openmpi:osc=ucx                                                          fail: target 1 only (see defect 18)
--   ... --impl mpich, the reference on --path am and direct                             pass
return {
  ranks = 2,
  options = {
    dtype = {"pair dtype", "short_int"},
    op = {"maxloc, minloc or replace", "maxloc"},
    call = {"accumulate or get_accumulate", "accumulate"},
    target = {"contiguous (count x contiguous(1, dtype)), vector (every other element) or plain",
              "contiguous"},
    count = {"pairs", 3},
    flavor = {"create or allocate", "create"},
  },
  setup = function(ctx)
    local dt, n = rma.opt.dtype, rma.opt.count
    ctx.ext = rma.buffer(1, dt):bytes()
    ctx.win = rma.window{ flavor = rma.opt.flavor, size = 2 * n * ctx.ext, disp_unit = ctx.ext }
    local mem = ctx.win:local_buffer(dt)
    for s = 0, 2 * n - 1 do mem:set(s, 10 + s, s) end
  end,
  run = function(ctx)
    local dt, n = rma.opt.dtype, rma.opt.count
    ctx.res = rma.buffer(n, dt)
    rma.barrier()
    if rma.rank == 0 then
      local origin = rma.buffer(n, dt)
      -- minloc wants the smaller value: its operands are below the target's
      local base = rma.opt.op == "minloc" and -100 or 100
      for i = 0, n - 1 do origin:set(i, base + i, i) end
      local t, layout
      if rma.opt.target == "vector" then
        t = rma.type_vector(n, 1, 2, dt)
        layout = { target_type = t }
      elseif rma.opt.target == "contiguous" then
        t = rma.type_contiguous(1, dt)
        layout = { target_type = t, target_count = n }
      end
      ctx.win:lock(1, "exclusive")
      if rma.opt.call == "get_accumulate" then
        ctx.win:get_accumulate(origin, ctx.res, 1, 0, rma.opt.op, layout)
      else
        ctx.win:accumulate(origin, 1, 0, rma.opt.op, layout)
      end
      ctx.win:unlock(1)
      if t then t:free() end
    end
    rma.barrier()
  end,
  check = function(ctx)
    local dt, n = rma.opt.dtype, rma.opt.count
    local step = rma.opt.target == "vector" and 2 or 1
    local base = rma.opt.op == "minloc" and -100 or 100
    if rma.rank == 0 and rma.opt.call == "get_accumulate" then
      for i = 0, n - 1 do
        local v, k = ctx.res:get(i)
        rma.expect(v == 10 + step * i and k == step * i, string.format(
          "result %d: (%d, %d), want (%d, %d)", i, v, k, 10 + step * i, step * i))
      end
    elseif rma.rank == 1 then
      local mem = ctx.win:local_buffer(dt)
      for i = 0, n - 1 do
        local v, k = mem:get(step * i)
        rma.expect(v == base + i and k == i, string.format(
          "target %d: (%d, %d), want (%d, %d)", step * i, v, k, base + i, i))
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
