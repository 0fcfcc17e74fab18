-- accpscw1: a port of MPICH's test/mpi/rma/accpscw1.c ("Accumulate/replace with
-- Post/Start/Complete/Wait"). As accfence1, in a PSCW epoch: the last rank posts to rank 0,
-- which starts, accumulates with replace through a pool layout pair, and completes; after
-- wait the target's window must hold the data where the target layout says and its sentinel
-- in every gap.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.transfer_case{ op = "accumulate", sync = "pscw", acc_op = "replace", unit = "basic" }
