-- lockall_dt_flushall: a port of MPICH's test/mpi/rma/lock_x_dt.c built as
-- lockall_dt_flushall (SINGLE_ORIGIN, MULTI_TARGET, USE_FLUSH_ALL): as lockall_dt_flush with
-- one flush_all.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.lock_case{ lock = "lock_all", flush = "flush_all", flush_local = "none",
                         origins = "single", ranks = 4 }
