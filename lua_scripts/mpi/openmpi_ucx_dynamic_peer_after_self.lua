-- Library defect reproducer (docs/conformance-mpi.md, defect 14): Debian's Open MPI 4.1.4 with
-- osc/ucx: on a dynamic window, rank 0 first writes its own attached memory (a put or an
-- accumulate to itself, in its own lock epoch), then gets from rank 1, which attached two
-- regions: the MPI_Get fails with MPI_ERR_OTHER (UCX logs "failed to unpack remote key").
-- With one region at rank 1, or a get instead of the write to itself, the get is right.
-- Reduced by hand from random/programs seed 20261123 program 3 at np=2 (its MPI_ERR_OTHER).
--
--   rmabench run lua_scripts/mpi/openmpi_ucx_dynamic_peer_after_self.lua --impl openmpi:osc=ucx   error 10 of 10 (MPI_ERR_OTHER in MPI_Get)
--   ... -o self=accumulate --impl openmpi:osc=ucx                                                error 10 of 10
--   ... -o self=none --impl openmpi:osc=ucx                                                      crash (SIGSEGV) 2 of 10, then 0 of 8
--   ... -o self=get, -o regions=1 --impl openmpi:osc=ucx; --impl openmpi:osc=pt2pt; the reference pass 10 of 10
return {
  ranks = 2,
  options = { self = {"rank 0's access to its own memory first: put, get, accumulate or none", "put"},
              regions = {"regions rank 1 attaches (1 or 2)", 2},
              count = {"u32 elements of rank 0's region and of its access to itself", 2048} },
  setup = function(ctx)
    -- attach takes any memory: the window asks for "auto" (the reference then runs on am).
    ctx.win = rma.window{ flavor = "dynamic", path = "auto" }
    local addr = rma.buffer(1, "i64")
    if rma.rank == 0 then
      ctx.regions = { rma.buffer(rma.opt.count, "u32"):fill(1) }
      ctx.own = ctx.win:attach(ctx.regions[1])
      rma.recv(1, addr, 1)
      ctx.peer = addr:get(0)
    else
      ctx.regions = {}
      for i = 1, rma.opt.regions do
        ctx.regions[i] = rma.buffer(1, "i64"):fill(100 + i)
        local a = ctx.win:attach(ctx.regions[i])
        if i == 1 then addr:set(0, a) end
      end
      rma.send(0, addr, 1)
    end
  end,
  run = function(ctx)
    if rma.rank == 0 then
      local n, s = rma.opt.count, rma.opt.self
      ctx.win:lock(0, "shared")
      if s == "put" then ctx.win:put(rma.buffer(n, "u32"):fill(5), 0, ctx.own)
      elseif s == "get" then ctx.win:get(rma.buffer(n, "u32"), 0, ctx.own)
      elseif s == "accumulate" then ctx.win:accumulate(rma.buffer(n, "u32"):fill(5), 0, ctx.own, "min")
      end
      ctx.win:unlock(0)
      ctx.back = rma.buffer(1, "i64")
      ctx.win:lock(1, "shared")
      ctx.win:get(ctx.back, 1, ctx.peer)
      ctx.win:unlock(1)
    end
    rma.barrier()
  end,
  check = function(ctx)
    if rma.rank == 0 then rma.expect_eq(ctx.back:get(0), 101, "rank 1's first region") end
  end,
  teardown = function(ctx)
    for _, r in ipairs(ctx.regions) do ctx.win:detach(r) end
    ctx.win:free()
  end,
}
