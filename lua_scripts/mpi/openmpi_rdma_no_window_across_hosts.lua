-- Library defect reproducer (docs/conformance-mpi.md, "Across hosts"): Debian's Open MPI 4.1.4
-- creates no window at all between ranks on different hosts with its default one-sided
-- components. MPI_Win_allocate (and MPI_Win_create, also in plain C) returns MPI_ERR_WIN: the
-- only component left to it, osc/rdma, finds no BTL that reaches the other host with RDMA
-- (btl/tcp, the one that does reach it, has no one-sided support osc/rdma takes), while
-- Debian's /etc/openmpi/openmpi-mca-params.conf excludes the two that would carry it
-- (`osc = ^ucx,pt2pt`); osc/sm is one node only. On one host osc/rdma runs over shared memory.
--
-- Needs two hosts, here host0 and host1 (on one machine: the namespace hosts of
-- tests/e2e/netns_hosts.hpp, rmabench started on host0, tests/e2e/scripts/netns_rsh.sh as
-- the agent):
--
--   rmabench run lua_scripts/mpi/openmpi_rdma_no_window_across_hosts.lua --impl openmpi \
--     --mpi-hosts host0,host1 [--mpi-rsh tests/e2e/scripts/netns_rsh.sh]      error: MPI_ERR_WIN
--   ... --impl openmpi:osc=pt2pt or openmpi:osc=ucx (the exclusion overridden)   pass
--   ... --impl openmpi without --mpi-hosts (one host), --impl mpich              pass
return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
  end,
  run = function(ctx)
    ctx.win:fence()
    if rma.rank == 0 then ctx.win:put(rma.buffer(8, "u8"):fill(7), 1, 0) end
    ctx.win:fence()
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer():sub(0, 8), rma.buffer(8, "u8"):fill(7), "the put arrived")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
