-- The full conformance suite: every pattern script on every rank count it allows, on the
-- shared-memory backend by default (narrow or widen with --backend, --path, --progress).
return {
  name = "conformance",
  scripts_dir = "../lua_scripts",
  timeout = 60,
  backends = {"shm"},
  paths = {"am"},
  progress = {"async"},
  cases = {
    { script = "examples/hello.lua", ranks = {1, 2, 3, 4, 8} },
  },
}
