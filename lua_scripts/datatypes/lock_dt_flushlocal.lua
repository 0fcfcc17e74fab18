-- lock_dt_flushlocal: a port of MPICH's test/mpi/rma/lock_x_dt.c built as
-- lock_dt_flushlocal (SINGLE_ORIGIN, SINGLE_TARGET, USE_FLUSH_LOCAL). As lock_dt, but after
-- flush_local the origin overwrites its buffer at once: the target must still receive the
-- values the buffer held when the op was called.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.lock_case{ lock = "lock", flush = "none", flush_local = "flush_local",
                         origins = "single", ranks = 2 }
