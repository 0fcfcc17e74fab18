-- A bench suite with one configuration at two sizes, one of them excluded: under --sizes the
-- configuration is one case, run, and not also listed as excluded (tests/e2e/bench_test.cpp).
return {
  name = "sizes_excluded",
  scripts_dir = "../../../lua_scripts",
  exclude = "bench_sizes_excluded.exclude",
  backends = {"shm"},
  paths = {"am"},
  cases = {
    { script = "bench/latency.lua", ranks = {2},
      options = { op = {"put"}, sync = {"lock"}, size = {8, 65536} } },
  },
}
