return { scripts_dir = "lua_scripts", cases = {
  { script = "random/programs.lua", ranks = {0, 3}, options = { seed = {1}, {4} } } } }
