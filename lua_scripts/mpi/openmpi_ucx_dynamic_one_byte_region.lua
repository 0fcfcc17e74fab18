-- Library defect reproducer (docs/conformance-mpi.md, defect 13): Debian's Open MPI 4.1.4 with
-- osc/ucx: a rank that attached a 1-byte region to a dynamic window dies of SIGSEGV in
-- MPI_Win_free (its regions detached first or not), with or without any RMA on the window:
-- always when the 1-byte region follows another region, now and then when it is the only one.
-- A second region of 2 bytes or more is freed fine. MPI lets any disjoint regions of any size
-- be attached (MPI-3.1 §11.2.4). This, not the 8-bit compare_and_swap of defect 6, is what
-- crashed random/programs seed 20261123 program 3 at np=2 (rank 1's second cell there is one u8).
--
--   rmabench run lua_scripts/mpi/openmpi_ucx_dynamic_one_byte_region.lua --impl openmpi:osc=ucx   crash 10 of 10 (SIGSEGV, rank 1)
--   ... -o put=false (no RMA: attach, detach, free) --impl openmpi:osc=ucx                        crash 10 of 10
--   ... -o first=0 (the 1-byte region alone) --impl openmpi:osc=ucx                               crash 3 of 10
--   ... -o second=2 --impl openmpi:osc=ucx; --impl openmpi:osc=pt2pt; the reference (am, direct) pass 10 of 10
return {
  ranks = 2,
  options = { first = {"bytes of rank 1's first region (0: none)", 8},
              second = {"bytes of rank 1's second region", 1},
              put = {"rank 0 puts into rank 1's second region and reads it back", true} },
  setup = function(ctx)
    -- attach takes any memory: the window asks for "auto" (the reference then runs on am).
    ctx.win = rma.window{ flavor = "dynamic", path = "auto" }
    ctx.regions = {}
    local addr = rma.buffer(1, "i64"):fill(0)
    if rma.rank == 1 then
      if rma.opt.first > 0 then
        ctx.regions[1] = rma.buffer(rma.opt.first, "u8"):fill(0)
        ctx.win:attach(ctx.regions[1])
      end
      ctx.last = rma.buffer(rma.opt.second, "u8"):fill(0)
      ctx.regions[#ctx.regions + 1] = ctx.last
      addr:set(0, ctx.win:attach(ctx.last))
      rma.send(0, addr, 1)
    else
      rma.recv(1, addr, 1)
      ctx.addr = addr:get(0)
    end
  end,
  run = function(ctx)
    if rma.opt.put and rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:put(rma.buffer(1, "u8"):set(0, 42), 1, ctx.addr)
      ctx.win:flush(1)
      ctx.back = rma.buffer(1, "u8")
      ctx.win:get(ctx.back, 1, ctx.addr)
      ctx.win:unlock(1)
    end
    rma.barrier()
  end,
  check = function(ctx)
    if not rma.opt.put then return end
    if rma.rank == 0 then rma.expect_eq(ctx.back:get(0), 42, "the byte read back") end
    if rma.rank == 1 then rma.expect_eq(ctx.last:get(0), 42, "the 1-byte region's byte") end
  end,
  teardown = function(ctx)
    for _, r in ipairs(ctx.regions) do ctx.win:detach(r) end
    ctx.win:free()
  end,
}
