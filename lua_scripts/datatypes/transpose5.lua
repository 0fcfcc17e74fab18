-- transpose5: a port of MPICH's test/mpi/rma/transpose5.c. Rank 0 accumulates (sum) its
-- n × n matrix of i32 into rank 1's, which holds the same matrix, through the transpose type
-- in one fence epoch: rank 1's [j][i] must become A[j][i] + A[i][j] = j·n + i + i·n + j, the
-- guard rows around it untouched. MPICH's size (1000) with -o n=1000.
local transpose = require("transpose")  -- the transpose type and the guarded check

return {
  ranks = 2,
  options = { n = {"matrix order (MPICH: 1000)", 100} },
  setup = function(ctx)
    local n = rma.opt.n
    ctx.win = rma.window{ size = rma.rank == 1 and transpose.window_bytes(n) or 0, disp_unit = 4,
                          flavor = "create" }
    if rma.rank == 1 then
      local mem = ctx.win:local_buffer("i32"):fill(transpose.SENTINEL)
      mem:sub(n, n * n):copy_from(transpose.matrix(n))
    end
    if rma.rank == 0 then ctx.a = transpose.matrix(n) end
  end,
  run = function(ctx)
    local n = rma.opt.n
    ctx.win:fence()
    if rma.rank == 0 then
      local xpose, column = transpose.xpose(n)
      ctx.win:accumulate(ctx.a, 1, n, "sum", { target_type = xpose })
      column:free(); xpose:free()
    end
    ctx.win:fence()
  end,
  check = function(ctx)
    local n = rma.opt.n
    if rma.rank == 1 then
      transpose.check(ctx.win:local_buffer("i32"), n,
                      function(i, j) return transpose.a(n, i, j) + transpose.a(n, j, i) end,
                      "rank 1's matrix after the accumulate", true)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
