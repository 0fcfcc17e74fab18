-- lockall_dt_flush: a port of MPICH's test/mpi/rma/lock_x_dt.c built as lockall_dt_flush
-- (SINGLE_ORIGIN, MULTI_TARGET, USE_FLUSH): as lockall_dt, the origin flushing each target
-- and the targets checking while lock_all is still open.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.lock_case{ lock = "lock_all", flush = "flush", flush_local = "none",
                         origins = "single", ranks = 4 }
