-- lockall_dt_flushlocal: a port of MPICH's test/mpi/rma/lock_x_dt.c built as
-- lockall_dt_flushlocal (SINGLE_ORIGIN, MULTI_TARGET, USE_FLUSH_LOCAL): as lockall_dt, the
-- origin calling flush_local per target and then overwriting its buffer; every target must
-- still receive what the buffer held at the calls.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.lock_case{ lock = "lock_all", flush = "none", flush_local = "flush_local",
                         origins = "single", ranks = 4 }
