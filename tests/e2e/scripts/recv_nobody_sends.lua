-- Rank 0 waits in recv for a message nobody sends; rank 1 waits in the next barrier. Every
-- rank is blocked inside a library call: the launcher must report a deadlock, with each
-- rank's call, since when, and the script line.
-- tests/e2e/foundation_test.cpp checks the file:line reported: keep the lines where they are.
return {
  ranks = 2,
  run = function(ctx)
    if rma.rank == 0 then
      rma.recv(1, rma.buffer(8), 99)
    end
  end,
}
