-- transpose6: a port of MPICH's test/mpi/rma/transpose6.c, a one-rank test (MPI_COMM_SELF):
-- each rank accumulates (sum) its n × n matrix of i32 into its own window, which holds the
-- same matrix, through the transpose type in one fence epoch; [j][i] must become
-- A[j][i] + A[i][j], the guard rows around the matrix untouched. With more ranks each does
-- the same on its own window (as every rank of MPICH's run does on MPI_COMM_SELF).
local transpose = require("transpose")  -- the transpose type and the guarded check

return {
  ranks = 1,
  options = { n = {"matrix order (MPICH: 100)", 100} },
  setup = function(ctx)
    local n = rma.opt.n
    ctx.win = rma.window{ size = transpose.window_bytes(n), disp_unit = 4, flavor = "create" }
    local mem = ctx.win:local_buffer("i32"):fill(transpose.SENTINEL)
    mem:sub(n, n * n):copy_from(transpose.matrix(n))
    ctx.a = transpose.matrix(n)
  end,
  run = function(ctx)
    local n = rma.opt.n
    ctx.win:fence()
    local xpose, column = transpose.xpose(n)
    ctx.win:accumulate(ctx.a, rma.rank, n, "sum", { target_type = xpose })
    column:free(); xpose:free()
    ctx.win:fence()
  end,
  check = function(ctx)
    local n = rma.opt.n
    transpose.check(ctx.win:local_buffer("i32"), n,
                    function(i, j) return transpose.a(n, i, j) + transpose.a(n, j, i) end,
                    "own matrix after the accumulate", true)
  end,
  teardown = function(ctx) ctx.win:free() end,
}
