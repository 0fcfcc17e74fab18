-- lock_contention_dt: a port of MPICH's test/mpi/rma/lock_x_dt.c built as lock_contention_dt
-- (MULTI_ORIGIN, SINGLE_TARGET). Every rank but the last takes a shared lock on the last and
-- accumulates (then get_accumulates) with replace the same values through the same pool
-- layout pair, concurrently: accumulates to one element with one op are atomic per element,
-- so the window must hold those values at the target layout's elements and its sentinel in
-- every gap. The results are not checked (an origin may read another's values), as in MPICH.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.lock_case{ lock = "lock", flush = "none", flush_local = "none",
                         origins = "multi", ranks = 4 }
