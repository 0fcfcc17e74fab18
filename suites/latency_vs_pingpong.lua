-- For `rmabench bench`: lock-put-unlock of 8 bytes on both window paths beside a raw
-- send/recv round trip of 8 bytes, all in one run on whichever backend is chosen, so the
-- RMA latency is read as a ratio to the round trip measured at the same moment
-- (ARCHITECTURE.md: lock-put-unlock costs one round trip on the am path; the direct path
-- should not cost more).
--   rmabench bench suites/latency_vs_pingpong.lua --backend fabric --provider "tcp;ofi_rxm"
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
      options = { op = {"put"}, sync = {"lock"}, size = {8} } },
  },
}
