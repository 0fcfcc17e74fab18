return {
  name = "fz",
  scripts_dir = "lua_scripts",
  timeout = 30,
  backends = {"shm"},
  paths = {"am", "direct"},
  progress = {"async"},
  cases = {
    "examples/hello.lua",
    { script = "examples/ring.lua", ranks = {2, 3}, options = { bytes = {64} }, tags = {"x"} },
    { script = "passive/lock_put_unlock.lua", expect = "pass", progress = {"calls"} },
  },
}
