-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with osc/ucx
-- gets MPI_Accumulate with MPI_MAXLOC on MPI_DOUBLE_INT (the padded pair {double, int}: size
-- 12, extent 16) wrong. Through a derived type over it (vector(10, 3, 5) or contiguous(30))
-- pairs the type covers keep their old value or get only their index (14 of 30 here), and the
-- origin process then aborts in the allocator ("corrupted size vs. prev_size", SIGABRT): a
-- heap overrun. As 30 plain MPI_DOUBLE_INT the data is right but the origin still dies
-- (SIGABRT "free(): invalid pointer"; SIGSEGV in the same C program). MPI_REPLACE through the
-- vector and MPI_2INT (unpadded) are right, and so are osc/rdma and osc/pt2pt. Rank 0
-- accumulates (1, 1) pairs with maxloc into rank 1's 50 (0, 0) pairs under a shared lock (the
-- pattern of MPICH's acc_pairtype.c). Also reproduced in C (the same calls on an
-- MPI_Win_allocate window).
--
--   rmabench run lua_scripts/mpi/openmpi_ucx_maxloc_derived_pair.lua --impl openmpi:osc=ucx   crash (SIGABRT) + pair 1: got (0.0, 0)
--   ... -o form=contiguous --impl openmpi:osc=ucx                                            same
--   ... -o form=plain --impl openmpi:osc=ucx                                                 crash (SIGABRT), data right
--   ... -o dtype=2int, -o op=replace --impl openmpi:osc=ucx                                  pass
--   ... --impl openmpi:osc=rdma, --impl openmpi:osc=pt2pt, --impl mpich, the reference       pass
return {
  ranks = 2,
  options = {
    dtype = {"pair dtype", "double_int"},
    form = {"vector (10 blocks of 3 at stride 5), contiguous (30) or plain (30 of the dtype)", "vector"},
    op = {"maxloc or replace", "maxloc"},
  },
  setup = function(ctx)
    local dt = rma.opt.dtype
    if not pcall(rma.buffer, 1, dt) then rma.skip("no pair dtype " .. dt .. " in this implementation") end
    local ext = rma.buffer(1, dt):bytes()
    ctx.win = rma.window{ size = 50 * ext, disp_unit = ext, flavor = "allocate" }
    local mem = ctx.win:local_buffer(dt)
    for i = 0, 49 do mem:set(i, 0, 0) end
    ctx.orig = rma.buffer(50, dt)
    for i = 0, 49 do ctx.orig:set(i, 1, 1) end
  end,
  run = function(ctx)
    rma.barrier()
    if rma.rank == 0 then
      local t, layout
      if rma.opt.form == "vector" then t = rma.type_vector(10, 3, 5, rma.opt.dtype)
      elseif rma.opt.form == "contiguous" then t = rma.type_contiguous(30, rma.opt.dtype) end
      if t then layout = { origin_type = t, target_type = t }
      else layout = { origin_count = 30, target_type = rma.opt.dtype, target_count = 30 } end
      ctx.win:lock(1, "shared")
      ctx.win:accumulate(ctx.orig, 1, 0, rma.opt.op, layout)
      ctx.win:unlock(1)
      if t then t:free() end
    end
    rma.barrier()
  end,
  check = function(ctx)
    if rma.rank ~= 1 then return end
    local mem = ctx.win:local_buffer(rma.opt.dtype)
    for i = 0, 49 do
      local a, b = mem:get(i)
      local covered = (rma.opt.form == "vector") and (i % 5 < 3) or (rma.opt.form ~= "vector" and i < 30)
      local want = covered and 1 or 0
      rma.expect(a == want and b == want, string.format("pair %d: got (%s, %s), want (%d, %d)",
                 i, tostring(a), tostring(b), want, want))
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
