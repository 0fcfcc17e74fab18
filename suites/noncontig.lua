-- For `rmabench bench`: non-contiguous put, get and accumulate beside the contiguous op of
-- the same bytes (lua_scripts/bench/noncontig.lua), on both window paths, so each layout
-- is read as a ratio to the contiguous op measured in the same run:
--   rmabench bench suites/noncontig.lua --sizes 64K,1M
--   rmabench bench suites/noncontig.lua --sizes 1M --impl ref,mpich,openmpi
return {
  name = "noncontig",
  scripts_dir = "../lua_scripts",
  timeout = 300,
  backends = {"shm"},
  paths = {"am", "direct"},
  progress = {"async"},
  cases = {
    { script = "bench/noncontig.lua", ranks = {2},
      options = { op = {"put", "get", "accumulate"}, layout = {"contiguous", "vector"},
                  block = {8, 64, 4096} } },
    { script = "bench/noncontig.lua", ranks = {2},
      options = { op = {"put"}, layout = {"indexed", "subarray"}, block = {64} } },
  },
}
