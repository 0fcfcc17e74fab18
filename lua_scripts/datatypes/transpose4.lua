-- transpose4: a port of MPICH's test/mpi/rma/transpose4.c. Rank 0 takes a shared lock on
-- rank 1, puts its n × n matrix of i32 through the transpose type, unlocks; rank 1's window
-- is made over its own buffer, and after the window is freed that buffer must hold the
-- transpose (guard rows around it untouched) — the check MPICH makes after MPI_Win_free.
local transpose = require("transpose")  -- the transpose type and the guarded check

return {
  ranks = 2,
  options = { n = {"matrix order (MPICH: 100)", 100} },
  setup = function(ctx)
    local n = rma.opt.n
    if rma.rank == 1 then
      ctx.mem = rma.buffer(n * n + 2 * n, "i32"):fill(transpose.SENTINEL)
      ctx.win = rma.window{ flavor = "create", memory = ctx.mem, disp_unit = 4, path = "auto" }
    else
      ctx.win = rma.window{ size = 0, flavor = "create", disp_unit = 4, path = "auto" }
      if rma.rank == 0 then ctx.a = transpose.matrix(n) end
    end
  end,
  run = function(ctx)
    local n = rma.opt.n
    if rma.rank == 0 then
      local xpose, column = transpose.xpose(n)
      ctx.win:lock(1, "shared")
      ctx.win:put(ctx.a, 1, n, { target_type = xpose })
      column:free(); xpose:free()
      ctx.win:unlock(1)
    end
    ctx.win:free()
    ctx.win = nil
  end,
  check = function(ctx)
    local n = rma.opt.n
    if rma.rank == 1 then
      transpose.check(ctx.mem, n, function(i, j) return transpose.a(n, i, j) end,
                      "rank 1's buffer after the window is freed", true)
    end
  end,
  teardown = function(ctx) if ctx.win then ctx.win:free() end end,
}
