-- Every rank exposes its window to the other (post) and waits for an access epoch that
-- nobody starts: each blocks in wait (MPI_Win_wait on a library) for good — a deadlock the
-- watcher must name with every rank's call, across hosts too (tests/e2e/mpi_hosts_test.cpp).
return {
  ranks = 2,
  expect = "deadlock",
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
  end,
  run = function(ctx)
    ctx.win:post({1 - rma.rank})
    ctx.win:wait()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
