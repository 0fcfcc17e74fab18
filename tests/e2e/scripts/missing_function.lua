-- Calls a function that does not exist.
-- tests/e2e/foundation_test.cpp checks the file:line reported: keep the lines where they are.
return {
  ranks = 2,
  setup = function(ctx)
    rma.barrier()
    no_such_function(42)
  end,
}
