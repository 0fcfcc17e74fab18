-- accfence1: a port of MPICH's test/mpi/rma/accfence1.c ("Accumulate/Replace with Fence").
-- Rank 0 accumulates with replace into the last rank inside a fence epoch, origin and target
-- layouts drawn separately from a datatype pool with one signature (count elements of dtype);
-- the target's window must then hold the origin's values at the target layout's elements and
-- its sentinel everywhere else (MPICH checks the elements only; the gaps are checked here
-- too). MPICH runs counts 1, 17, 512, 1018 (and 65530, 262144 as large cases: -o long=true
-- -o count=65530).
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.transfer_case{ op = "accumulate", sync = "fence", acc_op = "replace", unit = "basic" }
