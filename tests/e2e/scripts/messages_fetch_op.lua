-- A `messages` function returning a misspelt packet type: the error names the function's
-- line and the nearest type (issue 40).
return {
  ranks = 2,
  run = function(ctx) end,
  messages = function()
    return { fetch_op = 1 }
  end,
}
