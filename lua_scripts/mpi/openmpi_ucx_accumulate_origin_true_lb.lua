-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with osc/ucx
-- reads an MPI_Accumulate's origin data from the wrong place when the origin type is one
-- contiguous block that does not start at byte 0 of the buffer (true lower bound > 0): an
-- hindexed type with one block at byte `skip`, or a subarray picking a run of elements. The
-- op is applied with the bytes at the buffer's start, not at the block's: the target gets
-- the origin elements shifted by skip / size. osc/ucx's accumulate (ompi/mca/osc/ucx/
-- osc_ucx_comm.c, v4.1.4) reduces a "contiguous memory layout" origin from `origin_addr`
-- without the type's true lower bound, while its put and get paths add it. A replace (a put
-- in osc/ucx) and an origin with two blocks (an iovec list) are right, and so are osc/rdma,
-- osc/pt2pt, MPICH and the reference. Rank 0 adds origin elements 100, 101, ... (the first
-- skip / size elements of its buffer hold 7, not part of the type) to rank 1's `count`
-- zeros under an exclusive lock.
--
--   rmabench run lua_scripts/mpi/openmpi_ucx_accumulate_origin_true_lb.lua --impl openmpi:osc=ucx   fail: target element 0: expected 100, got 7
--   ... -o form=subarray --impl openmpi:osc=ucx                                                        same
--   ... -o skip=0, -o op=replace, -o form=two_blocks --impl openmpi:osc=ucx                           pass
--   ... --impl openmpi:osc=rdma, --impl openmpi:osc=pt2pt, --impl mpich, the reference                pass
return {
  ranks = 2,
  options = {
    count = {"elements accumulated", 4},
    skip = {"elements of the origin buffer before the type's block", 2},
    dtype = {"element dtype", "i32"},
    op = {"accumulate op", "sum"},
    form = {"hindexed (one block at skip), subarray (a run at skip) or two_blocks (a gap between)", "hindexed"},
  },
  setup = function(ctx)
    local n, dt = rma.opt.count, rma.opt.dtype
    local size = rma.buffer(1, dt):bytes()
    ctx.win = rma.window{ size = size * n, disp_unit = size }
    ctx.win:local_buffer(dt):fill(0)
    -- two_blocks leaves one element out between its blocks: two runs, not one
    ctx.orig = rma.buffer(rma.opt.skip + n + 1, dt):fill(7)
    for i = 0, n - 1 do
      local gap = (rma.opt.form == "two_blocks" and i >= n // 2) and 1 or 0
      ctx.orig:set(rma.opt.skip + i + gap, 100 + i)
    end
  end,
  run = function(ctx)
    local n, skip, dt = rma.opt.count, rma.opt.skip, rma.opt.dtype
    local size = rma.buffer(1, dt):bytes()
    rma.barrier()
    if rma.rank == 0 then
      local t
      if rma.opt.form == "subarray" then
        t = rma.type_subarray({skip + n}, {n}, {skip}, "c", dt)
      elseif rma.opt.form == "two_blocks" then
        local first = n // 2
        t = rma.type_hindexed({first, n - first}, {skip * size, (skip + first + 1) * size}, dt)
      else
        t = rma.type_hindexed({n}, {skip * size}, dt)
      end
      ctx.win:lock(1, "exclusive")
      ctx.win:accumulate(ctx.orig, 1, 0, rma.opt.op, { origin_type = t, target_type = dt, target_count = n })
      ctx.win:unlock(1)
      t:free()
    end
    rma.barrier()
  end,
  check = function(ctx)
    if rma.rank ~= 1 then return end
    local mem = ctx.win:local_buffer(rma.opt.dtype)
    for i = 0, rma.opt.count - 1 do rma.expect_eq(mem:get(i), 100 + i, "target element " .. i) end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
