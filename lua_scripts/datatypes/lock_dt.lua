-- lock_dt: a port of MPICH's test/mpi/rma/lock_x_dt.c built as lock_dt (SINGLE_ORIGIN,
-- SINGLE_TARGET, no flush). Rank 0 takes a shared lock on the last rank and accumulates with
-- replace through a pool layout pair, unlocks; the target, after a barrier, locks itself
-- and checks its window (data at the target layout's elements, sentinel in every gap), then
-- rewrites its elements; a second round does the same with get_accumulate (replace), whose
-- result buffer must hold the target's rewritten values in the result layout.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.lock_case{ lock = "lock", flush = "none", flush_local = "none",
                         origins = "single", ranks = 2 }
