-- The full conformance suite: every pattern on every rank count it allows, on both window
-- paths of the shared-memory backend by default (narrow or widen with --backend, --path,
-- --progress, -n). Exclusions, one per line with a reason, live in conformance.exclude.
return {
  name = "conformance",
  scripts_dir = "../lua_scripts",
  timeout = 60,
  backends = {"shm"},
  paths = {"am", "direct"},
  progress = {"async"},
  cases = {
    { script = "examples/hello.lua", ranks = {1, 2, 3, 4, 8}, paths = {"am"} },
    { script = "examples/ring.lua", ranks = {2, 3, 4}, paths = {"am"},
      options = { bytes = {64, 1048576} } },

    { script = "passive/lock_put_unlock.lua", options = { size = {8, 4096, 1048576} } },
    "passive/lock_get_unlock.lua",
    "passive/lock_accumulate_unlock.lua",
    "passive/lock_three_puts_unlock.lua",
    "passive/lock_puts_get_unlock.lua",
    "passive/lock_unlock_no_op.lua",
    "passive/lock_nocheck_puts.lua",
    "passive/lock_put_flush_put_unlock.lua",
    "passive/lock_put_flush_local_unlock.lua",
    "passive/lock_fetch_and_op_unlock.lua",
    { script = "passive/exclusive_lock_counter.lua", ranks = {2, 4, 8} },

    "pscw/post_start_put.lua",
    "pscw/post_start_empty.lua",
    "pscw/post_start_nocheck.lua",

    "fence/fence_put_fence.lua",
    { script = "fence/fence_no_op.lua", ranks = {1, 2, 3, 4} },
    { script = "fence/fence_ring.lua", ranks = {1, 2, 3, 4, 8}, options = { epochs = {1, 10} } },

    { script = "progress/start_recv_complete.lua", progress = {"async", "calls"} },
    -- Progress only in synchronization calls: on am the target's recv never answers the
    -- rendezvous (the seed notes' deadlock); a direct put needs no target progress at all.
    { script = "progress/start_recv_complete.lua", progress = {"sync-only"}, paths = {"am"},
      expect = "deadlock", timeout = 5 },
    { script = "progress/start_recv_complete.lua", progress = {"sync-only"}, paths = {"direct"} },
    { script = "progress/start_recv_complete_twin.lua", progress = {"async", "calls", "sync-only"},
      timeout = 3 },
    "progress/passive_target_computing.lua",

    { script = "atomics/counter_fetch_and_op.lua", ranks = {2, 4} },
    { script = "atomics/cas_mutex.lua", ranks = {2, 4} },
    { script = "atomics/accumulate_concurrent.lua", ranks = {4}, options = { times = {10} } },

    { script = "flavors/shared_query.lua", ranks = {3, 4} },
    "flavors/dynamic.lua",
    "flavors/paths_not_mixed.lua",

    { script = "errors/misuse.lua", options = { misuse = {
      "op_outside_epoch", "unlock_without_lock", "lock_twice", "lock_inside_start",
      "op_after_lock_unlock_in_fence", "start_inside_start", "complete_without_start",
      "wait_without_post", "free_while_locked", "free_inside_pscw", "cas_on_float",
      "disp_past_end", "unknown_op", "unknown_dtype", "bad_lock_type", "bad_assert",
      "bad_rank", "flush_without_lock", "lock_on_no_locks_window", "op_on_freed_window" } } },
  },
}
