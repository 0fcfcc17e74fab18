-- transpose1: a port of MPICH's test/mpi/rma/transpose1.c. Rank 0 puts its n × n matrix of
-- i32 (A[i][j] = i·n + j, sent as n·n contiguous ints) into rank 1's window in one fence
-- epoch through the transpose type (a column vector repeated one int apart by hvector), so
-- rank 1's matrix becomes the transpose: [j][i] = i·n + j. The matrix sits between guard
-- rows that must keep their sentinel. MPICH's size (1000) with -o n=1000.
local transpose = require("transpose")  -- the transpose type and the guarded check

return {
  ranks = 2,
  options = { n = {"matrix order (MPICH: 1000)", 100} },
  setup = function(ctx)
    local n = rma.opt.n
    -- disp_unit one int, as MPICH's window over A; the matrix starts after one guard row.
    ctx.win = rma.window{ size = rma.rank == 1 and transpose.window_bytes(n) or 0, disp_unit = 4,
                          flavor = "create" }
    if rma.rank == 1 then ctx.win:local_buffer("i32"):fill(transpose.SENTINEL) end
    if rma.rank == 0 then ctx.a = transpose.matrix(n) end
  end,
  run = function(ctx)
    local n = rma.opt.n
    ctx.win:fence()
    if rma.rank == 0 then
      local xpose, column = transpose.xpose(n)
      ctx.win:put(ctx.a, 1, n, { target_type = xpose })
      column:free(); xpose:free()
    end
    ctx.win:fence()
  end,
  check = function(ctx)
    local n = rma.opt.n
    if rma.rank == 1 then
      transpose.check(ctx.win:local_buffer("i32"), n, function(i, j) return transpose.a(n, i, j) end,
                      "rank 1's matrix after the put", true)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
