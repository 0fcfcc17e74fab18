-- lockall_dt_flushlocalall: a port of MPICH's test/mpi/rma/lock_x_dt.c built as
-- lockall_dt_flushlocalall (SINGLE_ORIGIN, MULTI_TARGET, USE_FLUSH_LOCAL_ALL): as
-- lockall_dt_flushlocal with one flush_local_all.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.lock_case{ lock = "lock_all", flush = "none", flush_local = "flush_local_all",
                         origins = "single", ranks = 4 }
