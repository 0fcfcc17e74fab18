-- The derived-datatype suite: the ports of MPICH's derived-datatype RMA tests
-- (lua_scripts/datatypes/, each naming its original) and the datatype-pool sweep, on both
-- window paths of the shared-memory backend. Every case checks memory byte by byte against
-- lib/typemap.lua's model: data where the type map says, the sentinel in every gap. The sweep
-- runs every layout kind once per op, then the kinds drawn at random over every op × sync ×
-- count, then dtypes and accumulate ops; its large counts (MPICH's 65530) run only in the
-- entries tagged "long" (-o long=true; a few seconds each). About 45 s on 2 cores.
-- Message counts are not declared yet (the derived-type protocol rows are not settled).
local KINDS = {"basic", "contiguous", "vector", "hvector", "indexed", "indexed_block", "hindexed",
               "hindexed_block", "subarray_c", "subarray_fortran", "struct", "resized",
               "negative", "nested2", "nested3", "mixed"}
local OPS = {"put", "get", "accumulate", "get_accumulate"}
local SYNCS = {"fence", "pscw", "lock", "lock_all"}
local COUNTS = {1, 17, 512, 1018}   -- MPICH's dtpools counts below the large ones

return {
  name = "datatypes",
  scripts_dir = "../lua_scripts",
  timeout = 60,
  backends = {"shm"},
  paths = {"am", "direct"},
  progress = {"async"},
  cases = {
    -- the model against hand-worked type maps, and the implementation's types against it
    { script = "datatypes/typemap_selftest.lua", paths = {"am"}, tags = {"model"} },

    -- the datatype-pool sweep (dtpools): every kind once per op
    { script = "datatypes/dtpool_sweep.lua", options = { kind = KINDS, op = OPS, count = {17} },
      tags = {"sweep"} },
    -- layouts drawn from every kind, over the whole op × sync × count matrix, two seeds
    { script = "datatypes/dtpool_sweep.lua",
      options = { kind = {"mixed"}, op = OPS, sync = SYNCS, count = COUNTS, seed = {1, 2} },
      tags = {"sweep"} },
    -- nested layouts three deep and negative strides under every synchronization
    { script = "datatypes/dtpool_sweep.lua",
      options = { kind = {"nested3", "negative"}, op = OPS, sync = SYNCS, count = {1018} },
      tags = {"sweep"} },
    -- dtypes and accumulate ops other than replace
    { script = "datatypes/dtpool_sweep.lua",
      options = { kind = {"nested2"}, op = {"accumulate", "get_accumulate"}, sync = {"lock_all"},
                  dtype = {"i8", "u16", "i64", "f32", "f64"}, acc_op = {"sum", "max"} },
      tags = {"sweep"} },
    -- signatures of two basic types (a {dtype, f64} struct repeated): put and get
    { script = "datatypes/dtpool_sweep.lua",
      options = { kind = KINDS, op = {"put", "get"}, unit = {"struct"}, dtype = {"i16"}, count = {17} },
      tags = {"sweep"} },
    -- get_accumulate with no_op: an atomic read through a layout, no origin data
    { script = "datatypes/dtpool_sweep.lua",
      options = { kind = {"mixed"}, op = {"get_accumulate"}, acc_op = {"no_op"}, sync = SYNCS,
                  count = {17, 1018} },
      tags = {"sweep"} },
    -- one rank (origin and target the same) and three (the last rank the target)
    { script = "datatypes/dtpool_sweep.lua", ranks = {1, 3},
      options = { kind = {"mixed"}, op = OPS, sync = SYNCS, count = {512} }, tags = {"sweep"} },
    -- target windows from MPI_Win_allocate (MPICH's tests use MPI_Win_create, the default)
    { script = "datatypes/dtpool_sweep.lua",
      options = { kind = {"mixed"}, op = OPS, sync = SYNCS, count = {17, 1018}, flavor = {"allocate"} },
      tags = {"sweep"} },
    -- MPICH's large count
    { script = "datatypes/dtpool_sweep.lua",
      options = { kind = {"mixed"}, op = OPS, count = {65530}, long = {true} }, tags = {"sweep", "long"} },

    -- MPICH's dtpools-driven tests (the pool, fixed op and synchronization)
    { script = "datatypes/accfence1.lua", ranks = {2, 4}, options = { count = COUNTS } },
    { script = "datatypes/accpscw1.lua", ranks = {2, 4}, options = { count = COUNTS } },
    { script = "datatypes/putfence1.lua", ranks = {2, 4}, options = { count = COUNTS } },
    { script = "datatypes/getfence1.lua", ranks = {2, 4}, options = { count = COUNTS } },
    { script = "datatypes/putpscw1.lua", ranks = {2, 4}, options = { count = COUNTS } },
    { script = "datatypes/putfence1.lua", options = { count = {65530}, long = {true} }, tags = {"long"} },
    { script = "datatypes/lock_dt.lua", ranks = {2, 3}, options = { count = COUNTS } },
    { script = "datatypes/lock_dt_flush.lua", ranks = {2, 3}, options = { count = COUNTS } },
    { script = "datatypes/lock_dt_flushlocal.lua", ranks = {2, 3}, options = { count = COUNTS } },
    { script = "datatypes/lockall_dt.lua", ranks = {2, 4}, options = { count = COUNTS } },
    { script = "datatypes/lockall_dt_flush.lua", ranks = {2, 4}, options = { count = COUNTS } },
    { script = "datatypes/lockall_dt_flushall.lua", ranks = {2, 4}, options = { count = COUNTS } },
    { script = "datatypes/lockall_dt_flushlocal.lua", ranks = {2, 4}, options = { count = COUNTS } },
    { script = "datatypes/lockall_dt_flushlocalall.lua", ranks = {2, 4}, options = { count = COUNTS } },
    { script = "datatypes/lock_contention_dt.lua", ranks = {2, 4}, options = { count = COUNTS } },
    -- passive target with the target progressing only inside calls (am)
    { script = "datatypes/lock_dt_flush.lua", paths = {"am"}, progress = {"calls"} },
    { script = "datatypes/lockall_dt_flushlocal.lua", ranks = {4}, paths = {"am"}, progress = {"calls"} },

    -- strided patches (strided_*), put_bottom
    { script = "datatypes/strided_acc_indexed.lua", ranks = {2, 4}, options = { absolute = {false, true} } },
    { script = "datatypes/strided_acc_onelock.lua", ranks = {2}, options = { form = {"rows", "vector"} } },
    { script = "datatypes/strided_acc_subarray.lua", ranks = {2, 3} },
    { script = "datatypes/strided_get_indexed.lua", ranks = {2, 4} },
    { script = "datatypes/strided_getacc_indexed.lua", ranks = {2, 4} },
    { script = "datatypes/strided_getacc_indexed.lua", ranks = {4}, options = { flavor = {"shared"} } },
    { script = "datatypes/strided_putget_indexed.lua", ranks = {2, 4} },
    { script = "datatypes/strided_putget_indexed.lua", ranks = {4}, options = { flavor = {"shared"} } },
    { script = "datatypes/put_bottom.lua", ranks = {2} },

    -- transposes at order 100 (MPICH's size for 2, 3, 4 and 6), then 1000 (its size for 1, 5 and
    -- 7: a million one-int pieces, ~1 s on shm; fabric's direct path takes ~50 µs per ordered
    -- accumulate, so transpose5 gets a longer deadline)
    { script = "datatypes/transpose1.lua" },
    { script = "datatypes/transpose1.lua", options = { n = {1000} }, tags = {"long"} },
    { script = "datatypes/transpose2.lua" },
    { script = "datatypes/transpose3.lua", options = { flavor = {"create", "allocate"} } },
    { script = "datatypes/transpose3.lua", paths = {"am"}, progress = {"calls"} },
    { script = "datatypes/transpose4.lua" },
    { script = "datatypes/transpose5.lua" },
    { script = "datatypes/transpose5.lua", options = { n = {1000} }, tags = {"long"}, timeout = 180 },
    { script = "datatypes/transpose6.lua", ranks = {1, 2} },
    { script = "datatypes/transpose7.lua" },
    { script = "datatypes/transpose7.lua", options = { n = {1000} }, tags = {"long"} },

    -- the others
    { script = "datatypes/get_struct.lua", paths = {"am"} },  -- dynamic window: am only
    { script = "datatypes/test1_dt.lua" },
    { script = "datatypes/derived_acc_flush_local.lua", ranks = {3} },
    { script = "datatypes/get_accumulate_derived.lua", ranks = {4},
      options = { dtype = {"i16", "i32", "i64", "f64"} } },
    { script = "datatypes/putfidx.lua", ranks = {2, 4} },
    { script = "datatypes/selfrma.lua", ranks = {1, 2} },
    { script = "datatypes/contig_displ.lua" },
    { script = "datatypes/lockopts.lua" },
    { script = "datatypes/rputget.lua" },
    { script = "datatypes/atomic_rmw_gacc.lua", ranks = {3} },
    { script = "datatypes/rmazero.lua", ranks = {1, 2, 4} },
    -- a derived target at the eager limit's edge, where a layout op's prefix moves it to
    -- rendezvous (no MPICH original)
    { script = "datatypes/eager_edge.lua",
      options = { op = OPS, delta = {-8, 0, 8} } },
    -- the layout rules of the Lua API (TYPE, RMA_RANGE, BUFFER, ARG, COUNT; no MPICH original)
    { script = "datatypes/layout_errors.lua", ranks = {1, 2} },

    -- pair dtypes and maxloc/minloc (skip until the implementation has them)
    { script = "datatypes/pairs/acc_loc.lua", ranks = {4}, tags = {"pairs"} },
    { script = "datatypes/pairs/acc_pairtype.lua", ranks = {2}, tags = {"pairs"},
      options = { flavor = {"create", "allocate"} } },
    { script = "datatypes/pairs/atomic_get.lua", ranks = {3}, tags = {"pairs"},
      options = { dtype = {"2int", "short_int", "long_int", "float_int", "double_int"} } },
    -- a pair's padding keeps what it held, at the target and in a result (no MPICH original);
    -- 8200 elements go by rendezvous, and are large enough for one copy where dtypes allow it
    { script = "datatypes/pairs/pair_padding.lua", ranks = {2}, tags = {"pairs"},
      options = { dtype = {"short_int", "long_int", "double_int"}, count = {3, 8200},
                  layout = {"contiguous", "vector"} } },
    -- pairs 12 bytes apart, each one's first bytes in the tail padding of the one before: MPI
    -- allows it, since no data byte is written twice (no MPICH original); 3000 by rendezvous
    { script = "datatypes/pairs/pair_tail_data.lua", ranks = {2}, tags = {"pairs"},
      options = { dtype = {"long_int", "double_int"}, count = {5, 3000} } },
  },
}
