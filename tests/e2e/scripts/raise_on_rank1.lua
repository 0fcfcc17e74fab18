-- The run hook raises on rank 1 only; rank 0 goes on to the next barrier and must be
-- stopped by the launcher, not left behind.
-- tests/e2e/foundation_test.cpp checks the file:line reported: keep the lines where they are.
return {
  ranks = 2,
  run = function(ctx)
    if rma.rank == 1 then
      error("boom on rank one")
    end
  end,
}
