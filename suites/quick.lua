-- The quick suite CI runs on every change: at most 4 ranks, well under a minute on 2 cores.
return {
  name = "quick",
  scripts_dir = "../lua_scripts",
  timeout = 30,
  backends = {"shm"},
  paths = {"am"},
  progress = {"async"},
  cases = {
    { script = "examples/hello.lua", ranks = {2, 4} },
  },
}
