-- A bench suite whose cases differ only in an option and the rank count: their figures
-- must still have names of their own (tests/e2e/bench_test.cpp).
return {
  name = "matrix",
  scripts_dir = "../../../lua_scripts",
  backends = {"shm"},
  paths = {"am"},
  cases = {
    { script = "bench/latency.lua", ranks = {2, 3},
      options = { op = {"put", "get"}, sync = {"lock"}, size = {8} } },
  },
}
