-- `ranks` given as a word: it must not run on the default 2 ranks.
return {
  ranks = "four",
  run = function(ctx) end,
}
