-- putpscw1: a port of MPICH's test/mpi/rma/putpscw1.c ("Put with Post/Start/Complete/Wait").
-- As putfence1 in a PSCW epoch: the last rank posts to rank 0, rank 0 starts, puts through
-- a pool layout pair, completes; after wait every byte of the target's window is checked
-- (data at the target layout's elements, sentinel elsewhere).
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.transfer_case{ op = "put", sync = "pscw" }
