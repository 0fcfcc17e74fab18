-- For `rmabench bench`: lock-put-unlock on both window paths at 8 B, 64 KiB and 1 MiB beside
-- a raw send/recv round trip of 8 bytes, all in one run on whichever backend is chosen, so
-- each RMA figure is read as a ratio to what its path's transport costs at the same moment:
-- on shm the cache-line floor, the shm queue's round trip (xq, the am path), a memcpy of the
-- size (xmc) and a round trip carrying the size between the two cores (xho, the am path),
-- each measured in the run; elsewhere the raw round trip of the launch.
--   rmabench bench suites/latency_vs_pingpong.lua --repetitions 5
--   rmabench bench suites/latency_vs_pingpong.lua --backend fabric --provider "tcp;ofi_rxm" \
--     --repetitions 5
-- (`--sizes` replaces the three sizes.)
return {
  name = "latency_vs_pingpong",
  scripts_dir = "../lua_scripts",
  timeout = 120,
  backends = {"shm"},
  paths = {"am", "direct"},
  progress = {"async"},
  cases = {
    { script = "bench/pingpong.lua", ranks = {2}, paths = {"am"}, options = { size = {8} } },
    { script = "bench/latency.lua", ranks = {2},
      options = { op = {"put"}, sync = {"lock"}, size = {8, 65536, 1048576} } },
  },
}
