-- Calls a function that does not exist.
return {
  ranks = 2,
  setup = function(ctx)
    rma.barrier()
    no_such_function(42)
  end,
}
