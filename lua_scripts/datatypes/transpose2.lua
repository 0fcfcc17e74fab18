-- transpose2: a port of MPICH's test/mpi/rma/transpose2.c. As transpose1 (rank 0 puts its
-- n × n matrix of i32 to rank 1 in a fence epoch, rank 1's matrix must become the transpose,
-- the guard rows around it untouched), the target described differently: n instances of one
-- column (a vector of n blocks of 1, stride n) resized to the extent of one int, so that
-- consecutive columns start one int apart.
local transpose = require("transpose")  -- the guarded check
local tm = require("typemap")           -- the model of the resized column

return {
  ranks = 2,
  options = { n = {"matrix order (MPICH: 100)", 100} },
  setup = function(ctx)
    local n = rma.opt.n
    ctx.win = rma.window{ size = rma.rank == 1 and transpose.window_bytes(n) or 0, disp_unit = 4,
                          flavor = "create" }
    if rma.rank == 1 then ctx.win:local_buffer("i32"):fill(transpose.SENTINEL) end
    if rma.rank == 0 then ctx.a = transpose.matrix(n) end
  end,
  run = function(ctx)
    local n = rma.opt.n
    ctx.win:fence()
    if rma.rank == 0 then
      local column = rma.type_vector(n, 1, n, "i32")
      local column1 = rma.type_resized(column, 0, 4)
      tm.expect_type(column1, tm.resized(tm.vector(n, 1, n, "i32"), 0, 4), "resized column")
      ctx.win:put(ctx.a, 1, n, { target_type = column1, target_count = n })
      column:free(); column1:free()
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
