-- dtpool_sweep: a datatype-pool sweep in the spirit of MPICH's dtpools tests
-- (test/mpi/dtpools, driven by test/mpi/rma/{accfence1,accpscw1,fence,putpscw1,lock_x_dt}.c).
-- One op from rank 0 to the last rank, origin, target and (get_accumulate) result layouts
-- drawn separately from the pool, deterministically from `seed`, all with one signature:
-- `count` elements of `dtype`. `kind` picks the layouts: contiguous, vector, hvector,
-- indexed, indexed_block, hindexed, hindexed_block, subarray_c, subarray_fortran, struct,
-- resized (lb below and extent past the data), negative (negative strides), nested2 and
-- nested3 (levels of those over each other), basic, or mixed (each side any of them).
-- `op` (put, get, accumulate, get_accumulate, with `acc_op`) and `sync` (fence, pscw,
-- lock, lock_all with flush) complete the matrix. Each case checks bytes exactly with
-- lib/typemap.lua: the target's window holds the data where the target type map says and
-- its sentinel in every gap, local buffers likewise, origin buffers unchanged, and each
-- type's size, bounds and signature are the model's. Counts: MPICH's 1, 17, 512, 1018;
-- 65530 with -o long=true.
local dtpool = require("dtpool")  -- the layout pool and its runners (datatypes/dtpool.lua)

return dtpool.transfer_case{}
