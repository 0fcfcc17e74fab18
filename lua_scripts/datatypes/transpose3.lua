-- transpose3: a port of MPICH's test/mpi/rma/transpose3.c (and transpose3_shm, its
-- USE_WIN_ALLOCATE build: -o flavor=allocate). As transpose1 under post/start/complete/wait:
-- rank 1 fills its window (n × n ints and guard rows) inside a lock on itself, posts to rank
-- 0; rank 0 starts, puts its matrix through the transpose type, completes; after wait rank
-- 1's matrix must be the transpose and the guard rows untouched.
local transpose = require("transpose")  -- the transpose type and the guarded check

return {
  ranks = 2,
  options = {
    n = {"matrix order (MPICH: 100)", 100},
    flavor = {"create (transpose3) or allocate (transpose3_shm)", "create"},
  },
  setup = function(ctx)
    local n = rma.opt.n
    ctx.win = rma.window{ size = rma.rank == 1 and transpose.window_bytes(n) or 0, disp_unit = 4,
                          flavor = rma.opt.flavor }
    if rma.rank == 0 then ctx.a = transpose.matrix(n) end
  end,
  run = function(ctx)
    local n = rma.opt.n
    if rma.rank == 0 then
      local xpose, column = transpose.xpose(n)
      ctx.win:start({ 1 })
      ctx.win:put(ctx.a, 1, n, { target_type = xpose })
      column:free(); xpose:free()
      ctx.win:complete()
    elseif rma.rank == 1 then
      ctx.win:lock(1, "shared")
      ctx.win:local_buffer("i32"):fill(transpose.SENTINEL)
      ctx.win:unlock(1)
      ctx.win:post({ 0 })
      ctx.win:wait()
    end
  end,
  check = function(ctx)
    local n = rma.opt.n
    if rma.rank == 1 then
      transpose.check(ctx.win:local_buffer("i32"), n, function(i, j) return transpose.a(n, i, j) end,
                      "rank 1's matrix after the epoch", true)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
