-- putfence1: a port of MPICH's test/mpi/rma/fence.c built with USE_PUT ("putfence1").
-- Rank 0 puts to the last rank in a fence epoch through an origin and a target layout drawn
-- separately from a datatype pool with one signature; the window must hold the origin's
-- values at the target layout's elements, the sentinel in every gap, and the origin buffer
-- must be unchanged. MPICH's counts: 1, 17, 512, 1018, 65530 (-o long=true for the last).
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.transfer_case{ op = "put", sync = "fence" }
