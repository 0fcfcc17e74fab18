-- Reads an option it never declared (a misspelt name): an ERROR at that line on every rank,
-- where a nil would quietly change what the case does.
return {
  ranks = 2,
  options = { size = {"bytes per put", 8} },
  run = function(ctx)
    if rma.opt.szie then rma.log("unreachable") end
  end,
}
