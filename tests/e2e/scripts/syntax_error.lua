-- A script that does not parse: every rank must report it with file:line.
return {
  run = function(ctx)
    local x = = 1
  end,
}
