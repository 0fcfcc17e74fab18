-- The latency script with zero-byte ops, run as cases: such an op sends nothing, so each
-- sync costs what an empty epoch does, and the script's declared count must say so
-- (tests/e2e/bench_test.cpp).
return {
  name = "zero_size",
  scripts_dir = "../../../lua_scripts",
  backends = {"shm"},
  paths = {"am"},
  protocols = {"fewest", "ch3"},
  cases = {
    { script = "bench/latency.lua", ranks = {2},
      options = { op = {"put", "get", "accumulate"}, size = {0},
                  sync = {"lock", "lock_all", "flush", "flush_local", "pscw", "fence"} } },
  },
}
