-- A case table with a field the contract does not know (`iteration` for `iterations`).
return {
  ranks = 2,
  iteration = 3,
  run = function(ctx) end,
}
