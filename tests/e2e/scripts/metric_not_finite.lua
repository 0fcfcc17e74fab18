-- Rank 1 reports a metric that is not a number (0/0): JSON has no NaN, the report carried
-- null, and the parent's reading of it ended the whole run.
-- tests/e2e/foundation_test.cpp checks the file:line reported: keep the lines where they are.
return {
  ranks = 2,
  run = function(ctx)
    if rma.rank == 1 then
      rma.metric("latency", 0/0)
    end
  end,
}
