-- `messages` as a function whose count is not an integer: checked in the rank, the case errors.
return {
  ranks = 2,
  run = function(ctx) end,
  messages = function(ctx) return { total = rma.size / 4 } end,
}
