-- A case table with a misspelt hook: `chekc` must not run as a case that checked nothing.
return {
  ranks = 2,
  run = function(ctx) end,
  chekc = function(ctx)
    rma.expect(false, "never called")
  end,
}
