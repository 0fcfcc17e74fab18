-- A message count made by Lua's float division: 5 / 2 is 2.5, not a count.
return {
  ranks = 2,
  run = function(ctx) end,
  messages = { total = 5 / 2 },
}
