-- lockall_dt: a port of MPICH's test/mpi/rma/lock_x_dt.c built as lockall_dt (SINGLE_ORIGIN,
-- MULTI_TARGET). Rank 0 opens lock_all and accumulates with replace to every other rank
-- through a pool layout pair, then get_accumulate in a second round; each target checks
-- every byte of its window after unlock_all, and rank 0 each result buffer.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.lock_case{ lock = "lock_all", flush = "none", flush_local = "none",
                         origins = "single", ranks = 4 }
