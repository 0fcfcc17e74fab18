-- Calls a function that does not exist.
return {
  name = "missing function",
  ranks = 2,
  setup = function(ctx)
    rma.barrier()
    no_such_function(42)
  end,
}
