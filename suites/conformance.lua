-- The full conformance suite: every pattern of lua_scripts/ on every rank count it allows
-- (1, 2, 3, 4, 8), on both window paths of the shared-memory backend, and under the
-- progress modes where they mean something: `calls` for the am path's passive patterns
-- (the target makes progress inside any library call, here the harness's barriers and its
-- own RMA calls), `calls` and `sync_only` for active-target patterns (every target is inside
-- a synchronization call while it is accessed). sync_only deadlocks passive-target cases on
-- the am path by design, and on the direct path no target progress is ever needed, so
-- neither is run. Narrow or widen with --backend, --path, --progress, -n, --filter.
-- Exclusions, one per line with a reason, live in conformance.exclude.
local ALL_RANKS = {1, 2, 3, 4, 8}
local ACTIVE_PROGRESS = {"calls", "sync_only"}
-- Derived datatypes: every entry of suites/datatypes.lua (MPICH's derived-type tests and the
-- datatype-pool sweep) is part of conformance, appended below; that file is their one home.
local DATATYPES = require("datatypes").cases

local suite = {
  name = "conformance",
  scripts_dir = "../lua_scripts",
  timeout = 60,
  backends = {"shm"},
  paths = {"am", "direct"},
  progress = {"async"},
  exclude = "conformance.exclude",
  cases = {
    -- examples: the harness itself (no RMA)
    -- timeout: a library that does not buffer hello's send to itself at np=1 (MPI allows
    -- that: impl_defined in the script) is diagnosed after 20 s, not the suite's 60.
    { script = "examples/hello.lua", ranks = ALL_RANKS, paths = {"am"}, tags = {"examples"},
      timeout = 20 },
    { script = "examples/ring.lua", ranks = {2, 3, 4}, paths = {"am"},
      options = { bytes = {64, 1048576} }, tags = {"examples"} },
    -- the tutorial's first pattern (docs/writing-patterns.md)
    { script = "examples/accumulate_ring.lua", ranks = {1, 2, 4},
      options = { count = {8, 4096}, op = {"sum", "max"} }, tags = {"examples"} },
    -- the tutorial's halo: a typed window, element displacements, fence(noprecede) each run
    { script = "examples/halo.lua", ranks = {1, 3, 4}, tags = {"examples"} },

    -- differential random programs: a fixed seed, a few programs per rank count (a long run:
    -- rmabench run lua_scripts/random/programs.lua -n 3 -o seed=S -o programs=10000)
    { script = "random/programs.lua", ranks = {2, 3, 4},
      options = { seed = {20261123}, programs = {25} }, tags = {"random"} },

    -- passive target: the named patterns and their message counts; where the am protocols'
    -- counts differ, the am path runs both (ids then say protocol=fewest|ch3)
    { script = "passive/lock_put_unlock.lua", paths = {"direct"},
      options = { size = {8, 4096, 1048576} } },
    { script = "passive/lock_put_unlock.lua", paths = {"am"}, protocols = {"fewest", "ch3"},
      options = { size = {8, 4096, 1048576} } },
    { script = "passive/lock_put_unlock.lua", paths = {"am"}, progress = {"calls"} },
    { script = "passive/lock_get_unlock.lua", options = { size = {8, 65536} } },
    { script = "passive/lock_accumulate_unlock.lua", paths = {"direct"},
      options = { count = {1, 4096} } },
    { script = "passive/lock_accumulate_unlock.lua", paths = {"am"}, protocols = {"fewest", "ch3"},
      options = { count = {1, 4096} } },
    { script = "passive/lock_three_puts_unlock.lua", paths = {"direct"} },
    { script = "passive/lock_three_puts_unlock.lua", paths = {"am"}, protocols = {"fewest", "ch3"} },
    { script = "passive/lock_puts_get_unlock.lua", paths = {"direct"} },
    { script = "passive/lock_puts_get_unlock.lua", paths = {"am"}, protocols = {"fewest", "ch3"} },
    -- the hold budget's fallback, and lock contention (200 epochs per rank) on both protocols
    { script = "passive/lock_hold_budget.lua", paths = {"am"}, protocols = {"fewest", "ch3"} },
    { script = "passive/lock_budget_below_op.lua", paths = {"am"}, protocols = {"fewest", "ch3"} },
    { script = "passive/lock_contention.lua", paths = {"direct"},
      options = { lock = {"exclusive", "shared"} } },
    { script = "passive/lock_contention.lua", paths = {"am"}, protocols = {"fewest", "ch3"},
      options = { lock = {"exclusive", "shared"} } },
    "passive/lock_unlock_no_op.lua",
    "passive/lock_nocheck_puts.lua",
    "passive/lock_put_flush_put_unlock.lua",
    "passive/lock_put_flush_local_unlock.lua",
    "passive/lock_fetch_and_op_unlock.lua",
    -- passive target: several targets, self, concurrency, contention, modes
    { script = "passive/lock_many_targets.lua", ranks = ALL_RANKS,
      options = { lock = {"shared", "exclusive"} } },
    { script = "passive/lock_self.lua", ranks = {1, 2, 4}, options = { lock = {"shared", "exclusive"} } },
    { script = "passive/shared_locks_concurrent.lua", ranks = {2, 3, 4, 8} },
    { script = "passive/shared_locks_concurrent.lua", ranks = {3}, paths = {"am", "direct"},
      options = { lock = {"exclusive"} }, expect = "deadlock", timeout = 2 },
    { script = "passive/exclusive_lock_counter.lua", ranks = {2, 4} },
    -- timeout: 8 ranks on 2 cores taking turns at one lock, 1,600 epochs: a library whose
    -- waiters poll inside MPI calls (MPICH) needs 44 s for it alone and over 60 s under a
    -- loaded machine; the pattern completes (docs/conformance-mpi.md), so it is given time.
    { script = "passive/exclusive_lock_counter.lua", ranks = {8}, timeout = 180 },
    { script = "passive/exclusive_lock_counter.lua", ranks = {4}, paths = {"am"}, progress = {"calls"},
      options = { iterations = {50} } },
    { script = "passive/lock_all_flush.lua", ranks = {2, 3, 4, 8},
      options = { flush = {"flush", "flush_all"} } },
    { script = "passive/lock_all_flush.lua", ranks = {4}, paths = {"am"}, progress = {"calls"} },
    { script = "passive/switch_sync_modes.lua", ranks = ALL_RANKS },

    -- post/start/complete/wait
    { script = "pscw/post_start_put.lua", paths = {"direct"} },
    { script = "pscw/post_start_put.lua", paths = {"am"}, protocols = {"fewest", "ch3"} },
    { script = "pscw/post_start_empty.lua", paths = {"direct"} },
    { script = "pscw/post_start_empty.lua", paths = {"am"}, protocols = {"fewest", "ch3"} },
    { script = "pscw/pscw_hold_budget.lua", paths = {"am"}, protocols = {"fewest", "ch3"} },
    { script = "pscw/pscw_empty_over_budget.lua", paths = {"am"}, protocols = {"fewest", "ch3"} },
    -- contention: overlapping groups and back-to-back fences, 200 in a row, both protocols
    { script = "pscw/pscw_groups.lua", ranks = {4}, paths = {"am"}, protocols = {"fewest", "ch3"},
      options = { layout = {"all"}, reps = {200} } },
    { script = "fence/fence_ring.lua", ranks = {4}, paths = {"am"}, protocols = {"fewest", "ch3"},
      options = { epochs = {200} } },
    "pscw/post_start_nocheck.lua",
    { script = "pscw/post_start_test.lua", ranks = {1, 2, 3, 4} },
    { script = "pscw/post_start_empty_groups.lua", ranks = {1, 2, 3, 4} },
    "pscw/start_before_post.lua",
    { script = "pscw/pscw_groups.lua", ranks = {2, 3, 4, 8},
      options = { layout = {"pairs", "all", "fan_out", "fan_in"} } },
    { script = "pscw/pscw_groups.lua", ranks = {4}, paths = {"am"}, progress = ACTIVE_PROGRESS,
      options = { layout = {"all", "fan_in"} } },
    { script = "pscw/post_start_test.lua", ranks = {3}, paths = {"am"}, progress = ACTIVE_PROGRESS },

    -- fence: the am path under both protocols (their counts differ: the fence's exchange),
    -- the direct path on its own
    { script = "fence/fence_put_fence.lua", paths = {"direct"} },
    { script = "fence/fence_put_fence.lua", paths = {"am"}, protocols = {"fewest", "ch3"} },
    { script = "fence/fence_no_op.lua", ranks = {1, 2, 3, 4}, paths = {"direct"} },
    { script = "fence/fence_no_op.lua", ranks = {1, 2, 3, 4}, paths = {"am"},
      protocols = {"fewest", "ch3"} },
    { script = "fence/fence_no_op.lua", ranks = {2, 4}, paths = {"am"},
      options = { exchange = {"messages", "rounds"} } },
    { script = "fence/fence_ring.lua", ranks = ALL_RANKS, paths = {"direct"},
      options = { epochs = {1, 10} } },
    { script = "fence/fence_ring.lua", ranks = ALL_RANKS, paths = {"am"},
      protocols = {"fewest", "ch3"}, options = { epochs = {1, 10} } },
    { script = "fence/fence_ring.lua", ranks = {2, 3, 4, 8}, paths = {"am"},
      options = { epochs = {10}, exchange = {"messages", "rounds"} } },
    { script = "fence/fence_ring.lua", ranks = {2, 4, 8}, paths = {"direct"},
      options = { epochs = {10}, paired = {true, false}, asserts = {true, false} } },
    { script = "fence/fence_ring.lua", ranks = {2, 4, 8}, paths = {"am"},
      protocols = {"fewest", "ch3"},
      options = { epochs = {10}, paired = {true, false}, asserts = {true, false} } },
    { script = "fence/fence_ring.lua", ranks = {4}, paths = {"am"}, progress = ACTIVE_PROGRESS,
      protocols = {"fewest", "ch3"}, options = { epochs = {10} } },
    { script = "fence/fence_asserts.lua", ranks = ALL_RANKS, paths = {"direct"},
      options = { asserts = {true, false} } },
    { script = "fence/fence_asserts.lua", ranks = ALL_RANKS, paths = {"am"},
      protocols = {"fewest", "ch3"}, options = { asserts = {true, false} } },
    { script = "fence/fence_get.lua", ranks = {2, 3, 4, 8}, paths = {"direct"},
      options = { size = {64, 65536} } },
    { script = "fence/fence_get.lua", ranks = {2, 3, 4, 8}, paths = {"am"},
      protocols = {"fewest", "ch3"}, options = { size = {64, 65536} } },
    { script = "fence/fence_accumulate.lua", ranks = {2, 4, 8}, paths = {"direct"},
      options = { op = {"sum", "replace"}, dtype = {"i64"} } },
    { script = "fence/fence_accumulate.lua", ranks = {2, 4, 8}, paths = {"am"},
      protocols = {"fewest", "ch3"}, options = { op = {"sum", "replace"}, dtype = {"i64"} } },
    { script = "fence/fence_accumulate.lua", ranks = {4},
      options = { op = {"prod", "min", "max", "band", "bor", "bxor", "land", "lor", "lxor", "no_op"},
                  dtype = {"i32"} } },
    { script = "fence/fence_accumulate.lua", ranks = {3},
      options = { op = {"sum", "prod", "max"}, dtype = {"u8", "f32", "f64"} } },
    { script = "fence/fence_transpose.lua", ranks = ALL_RANKS, paths = {"direct"},
      options = { block = {8, 4096} } },
    { script = "fence/fence_transpose.lua", ranks = ALL_RANKS, paths = {"am"},
      protocols = {"fewest", "ch3"}, options = { block = {8, 4096} } },
    { script = "fence/fence_transpose.lua", ranks = {4}, paths = {"am"}, progress = ACTIVE_PROGRESS },
    -- the hold budget's fallback under fence, and epoch order at a target (both exchanges)
    { script = "fence/fence_hold_budget.lua", ranks = {2, 4}, paths = {"am"},
      protocols = {"fewest", "ch3"} },
    { script = "fence/fence_hold_budget.lua", ranks = {4}, paths = {"am"},
      options = { exchange = {"messages", "rounds"} } },
    { script = "fence/fence_epoch_order.lua", paths = {"am"}, protocols = {"fewest", "ch3"} },
    { script = "fence/fence_epoch_order.lua", paths = {"am"}, options = { exchange = {"rounds"} } },

    -- progress: the seed notes' start/recv/complete case and its twin
    { script = "progress/start_recv_complete.lua", progress = {"async", "calls"} },
    -- Progress only in synchronization calls: on am the target's recv never answers the
    -- rendezvous (the seed notes' deadlock); a direct put needs no target progress at all.
    -- The deadlock is certain under ch3 only: under fewest the put may reach the target
    -- before its post, and post (a synchronization call) then answers it (docs/protocol.md).
    { script = "progress/start_recv_complete.lua", progress = {"sync_only"}, paths = {"am"},
      protocols = {"ch3"}, expect = "deadlock", timeout = 3 },
    { script = "progress/start_recv_complete.lua", progress = {"sync_only"}, paths = {"direct"} },
    { script = "progress/start_recv_complete_twin.lua", progress = {"async", "calls", "sync_only"},
      timeout = 2 },
    { script = "progress/passive_target_computing.lua", options = { compute_s = {1.0} } },

    -- atomics
    { script = "atomics/counter_fetch_and_op.lua", ranks = {2, 4} },
    { script = "atomics/cas_mutex.lua", ranks = {2, 4} },
    { script = "atomics/cas_mutex.lua", ranks = {4}, paths = {"am"}, progress = {"calls"},
      options = { iterations = {20} } },
    { script = "atomics/accumulate_concurrent.lua", ranks = {4}, options = { times = {10} } },
    { script = "atomics/accumulate_ops.lua", ranks = {1, 2, 4, 8},
      options = { sync = {"lock", "lock_all", "fence", "pscw"} } },
    { script = "atomics/accumulate_ops.lua", ranks = {4}, paths = {"am"}, progress = ACTIVE_PROGRESS,
      options = { sync = {"fence", "pscw"} } },
    { script = "atomics/get_accumulate_ops.lua", ranks = {2, 3},
      options = { sync = {"lock", "lock_all", "fence", "pscw"} } },
    { script = "atomics/fetch_and_op_ops.lua", ranks = {2, 4},
      options = { form = {"value"}, sync = {"lock", "lock_all"} } },
    { script = "atomics/fetch_and_op_ops.lua", ranks = {2},
      options = { form = {"buffer"}, sync = {"lock", "lock_all", "fence", "pscw"} } },
    { script = "atomics/compare_and_swap_ops.lua", ranks = {2, 4},
      options = { form = {"value"}, sync = {"lock", "lock_all"} } },
    { script = "atomics/compare_and_swap_ops.lua", ranks = {2},
      options = { form = {"buffer"}, sync = {"lock", "lock_all", "fence", "pscw"} } },
    { script = "atomics/accumulate_ordering.lua", ranks = {2, 4},
      options = { sync = {"lock", "lock_all", "fence", "pscw"}, count = {4, 4096} } },
    { script = "atomics/no_torn_elements.lua", ranks = {3, 4},
      options = { dtype = {"i16", "i32", "i64", "f32", "f64"} } },
    { script = "atomics/no_torn_elements.lua", ranks = {8}, options = { dtype = {"i64"} } },

    -- completion
    { script = "completion/flush_remote_completion.lua", ranks = {3, 4},
      options = { op = {"put", "accumulate"} } },
    { script = "completion/flush_local_reuse.lua",
      options = { size = {64, 65536}, flush = {"flush_local", "flush_local_all"} } },
    { script = "completion/request_ops.lua", ranks = {2, 3},
      options = { complete = {"wait", "test", "unlock"}, sync = {"lock", "lock_all"} } },

    -- window flavors
    { script = "flavors/create_memory.lua", ranks = {1, 2, 4}, options = { memory = {true, false} } },
    { script = "flavors/allocate_disp_unit.lua", ranks = {2, 3},
      options = { disp_unit = {"1", "4", "8", "mixed"} } },
    { script = "flavors/shared_query.lua", ranks = {3, 4} },
    "flavors/dynamic.lua",
    { script = "flavors/zero_size.lua", ranks = {2, 3, 4},
      options = { flavor = {"allocate", "create", "shared"} } },
    { script = "flavors/proc_null.lua", ranks = {1, 2, 3},
      options = { sync = {"fence", "pscw", "lock", "lock_all"} } },
    { script = "flavors/windows_independent.lua", ranks = {2, 3, 4} },
    "flavors/paths_not_mixed.lua",

    -- errors: every misuse as its own case
    { script = "errors/misuse.lua", options = { misuse = {
      "op_outside_epoch", "unlock_without_lock", "lock_twice", "lock_inside_start",
      "op_after_lock_unlock_in_fence", "start_inside_start", "complete_without_start",
      "wait_without_post", "free_while_locked", "free_inside_pscw", "cas_on_float",
      "disp_past_end", "unknown_op", "unknown_dtype", "bad_lock_type", "bad_assert",
      "bad_rank", "flush_without_lock", "lock_on_no_locks_window", "op_on_freed_window",
      "lock_all_twice", "unlock_all_without_lock_all", "lock_inside_lock_all",
      "lock_all_inside_lock", "op_to_unlocked_target", "op_after_unlock",
      "target_not_in_start_group", "op_after_complete", "post_twice",
      "fence_inside_passive_epoch", "start_inside_fence_epoch", "noprecede_with_pending_ops",
      "request_op_outside_passive_epoch", "fetch_value_outside_passive_epoch", "bad_group",
      "assert_not_for_this_call", "get_accumulate_buffers_differ",
      "attach_to_non_dynamic_window", "attach_detach_mistakes",
      "shared_query_of_unmapped_memory", "bad_window_arguments", "free_twice" } },
      -- Each misuse takes well under a second on the reference; a library that hangs on one
      -- (MPI allows it: the call is erroneous) is diagnosed after 20 s, not the suite's 60.
      timeout = 20 },
    { script = "errors/datatype_misuse.lua", timeout = 20 },
  },
}
for _, entry in ipairs(DATATYPES) do table.insert(suite.cases, entry) end
return suite
