-- transpose7: a port of MPICH's test/mpi/rma/transpose7.c. Rank 0 gets rank 1's n × n matrix
-- of i32 as n·n contiguous ints, the target read through the transpose type, in one fence
-- epoch: rank 0's matrix (between guard rows, all a sentinel first) must become the
-- transpose, [j][i] = A[i][j], and rank 1's window stay as it was. MPICH's size (1000) with
-- -o n=1000.
local transpose = require("transpose")  -- the transpose type and the guarded check

return {
  ranks = 2,
  options = { n = {"matrix order (MPICH: 1000)", 100} },
  setup = function(ctx)
    local n = rma.opt.n
    ctx.win = rma.window{ size = rma.rank == 1 and n * n * 4 or 0, disp_unit = 4, flavor = "create" }
    if rma.rank == 1 then ctx.win:local_buffer("i32"):copy_from(transpose.matrix(n)) end
    if rma.rank == 0 then ctx.a = rma.buffer(n * n + 2 * n, "i32"):fill(transpose.SENTINEL) end
  end,
  run = function(ctx)
    local n = rma.opt.n
    ctx.win:fence()
    if rma.rank == 0 then
      local xpose, column = transpose.xpose(n)
      ctx.win:get(ctx.a:sub(n, n * n), 1, 0, { target_type = xpose })
      column:free(); xpose:free()
    end
    ctx.win:fence()
  end,
  check = function(ctx)
    local n = rma.opt.n
    if rma.rank == 0 then
      transpose.check(ctx.a, n, function(i, j) return transpose.a(n, i, j) end,
                      "rank 0's matrix after the get", true)
    elseif rma.rank == 1 then
      rma.expect(ctx.win:local_buffer("i32"):equals(transpose.matrix(n)), "rank 1's window unchanged")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
