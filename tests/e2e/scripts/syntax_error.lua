-- A script that does not parse: every rank must report it with file:line.
return {
  name = "syntax error",
  run = function(ctx)
    local x = = 1
  end,
}
