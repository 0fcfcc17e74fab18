-- getfence1: a port of MPICH's test/mpi/rma/fence.c built with USE_GET ("Get with Fence").
-- Rank 0 gets from the last rank in a fence epoch into a local layout, the target read
-- through another layout of the same signature (both drawn from the datatype pool); the
-- local buffer must hold the target's values at its layout's elements and its sentinel in
-- every gap, and the target's window must be unchanged.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.transfer_case{ op = "get", sync = "fence" }
