-- lock_dt_flush: a port of MPICH's test/mpi/rma/lock_x_dt.c built as lock_dt_flush
-- (SINGLE_ORIGIN, SINGLE_TARGET, USE_FLUSH). As lock_dt, but the origin flushes and the
-- target checks its window while the origin's lock is still held: the flush alone must make
-- the accumulate (then the get_accumulate) complete at the target.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.lock_case{ lock = "lock", flush = "flush", flush_local = "none",
                         origins = "single", ranks = 2 }
