-- Library defect reproducer (docs/conformance-mpi.md, defect 15): Debian's Open MPI 4.1.4 with
-- osc/rdma (its default component) refuses, with MPI_ERR_RMA_RANGE, an access across two
-- attached regions of a dynamic window whose common edge is a page boundary: it rounds every
-- region out to whole pages and looks an access up as lying inside one region, so regions that
-- meet at a page boundary stay two and nothing contains the access; regions that meet inside a
-- page merge and pass. Every byte of the access is attached memory (MPI-3.1 §11.2.4 makes an
-- access to memory that is not attached erroneous). flavors/dynamic puts across two halves of
-- one malloc'ed buffer, and so failed on osc/rdma once, in a CI run, when the buffer happened to
-- sit with its middle on a page boundary. Here rank 1 puts the edge where the option says and
-- rank 0 puts 192 bytes across it, then reads 256 back.
--
--   rmabench run lua_scripts/mpi/openmpi_rdma_dynamic_span_page.lua --impl openmpi           ERROR 4 of 4
--   ... -o split=inside --impl openmpi                                                        pass 3 of 3
--   ... --impl mpich; --impl openmpi:osc=pt2pt; --impl openmpi:osc=ucx; the reference (am)   pass
return {
  ranks = 2,
  options = { split = {"where the two regions meet: page | inside", "page"} },
  setup = function(ctx)
    if rma.opt.split ~= "page" and rma.opt.split ~= "inside" then
      error("split: page or inside, not " .. tostring(rma.opt.split))
    end
    ctx.win = rma.window{ flavor = "dynamic", path = "auto" }
    local addr = rma.buffer(1, "i64"):fill(0)
    if rma.rank == 1 then
      ctx.mem = rma.buffer(3 * 4096, "u8"):fill(0)
      -- The buffer's address, from attaching its first byte for a moment.
      local probe = ctx.mem:sub(0, 1)
      local base = ctx.win:attach(probe)
      ctx.win:detach(probe)
      local edge = (4096 - base % 4096) % 4096  -- offset of the first page boundary
      if edge < 128 then edge = edge + 4096 end
      if rma.opt.split == "inside" then
        edge = edge + 2048                      -- the middle of the page after it
      end
      ctx.lo, ctx.hi = ctx.mem:sub(edge - 128, 128), ctx.mem:sub(edge, 128)
      addr:set(0, ctx.win:attach(ctx.lo))
      ctx.win:attach(ctx.hi)
      rma.send(0, addr, 1)
    else
      rma.recv(1, addr, 1)
      ctx.addr = addr:get(0)
    end
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:put(rma.buffer(192, "u8"):iota(1), 1, ctx.addr + 32)
      ctx.win:flush(1)
      ctx.back = rma.buffer(256, "u8")
      ctx.win:get(ctx.back, 1, ctx.addr)
      ctx.win:unlock(1)
    end
    rma.barrier()
  end,
  check = function(ctx)
    if rma.rank == 0 then
      local want = rma.buffer(256, "u8")
      want:sub(32, 192):iota(1)
      rma.expect_eq(ctx.back, want, "the 192 bytes put across the two regions, read back")
    end
  end,
  teardown = function(ctx)
    if rma.rank == 1 then
      ctx.win:detach(ctx.hi)
      ctx.win:detach(ctx.lo)
    end
    ctx.win:free()
  end,
}
