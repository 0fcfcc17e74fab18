return { scripts_dir = "lua_scripts", cases = {
  { script = "random/programs.lua", ranks = {2, 3}, options = { seed = {1}, programs = {4} } } } }
