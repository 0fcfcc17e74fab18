-- Rank 1 leaves the process with os.exit(3) in the middle of run, while rank 0 waits in a
-- recv that would otherwise never be satisfied: the launcher reports a crash with code 3.
return {
  ranks = 2,
  run = function(ctx)
    if rma.rank == 1 then
      os.exit(3)
    end
    rma.recv(1, rma.buffer(8), 1)
  end,
}
