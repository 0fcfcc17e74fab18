-- strided_acc_onelock: a port of MPICH's test/mpi/rma/strided_acc_onelock.c. Every rank
-- accumulates (sum) its whole x × y matrix of doubles into its right neighbour's, one row
-- per accumulate (y of them) inside a single exclusive lock epoch, `iterations` epochs; the
-- window, which started at 1 + its own rank, must end at that plus iterations × (left
-- neighbour's rank + 1) in every element. The original has no derived type; `form=vector`
-- sends each epoch's rows as one accumulate of a vector type instead (every other row, then
-- the rest), the same sums by a strided layout. MPICH's size (1024 × 1024) with -o full=true.
local strided = require("strided")  -- the whole-matrix check

local function dims()
  if rma.opt.full then return 1024, 1024 end
  return rma.opt.x, rma.opt.y
end

return {
  ranks = 2,
  options = {
    x = {"row length (elements)", 64}, y = {"rows", 64},
    iterations = {"lock epochs", 10},
    form = {"rows (one accumulate per row, as MPICH) or vector (two strided accumulates)", "rows"},
    full = {"MPICH's size: 1024 x 1024", false},
  },
  setup = function(ctx)
    local x, y = dims()
    ctx.win = rma.window{ size = x * y * 8, flavor = "create" }
    ctx.win:local_buffer("f64"):fill(1.0 + rma.rank)
    ctx.src = rma.buffer(x * y, "f64"):fill(1.0 + rma.rank)
  end,
  run = function(ctx)
    local x, y = dims()
    local _, peer = strided.neighbours()
    for _ = 1, rma.opt.iterations do
      ctx.win:lock(peer, "exclusive")
      if rma.opt.form == "vector" then
        -- Even rows, then odd rows: (y + 1) // 2 and y // 2 blocks of x, stride 2 rows.
        for first = 0, math.min(1, y - 1) do
          local rows = (y - first + 1) // 2
          local t = rma.type_vector(rows, x, 2 * x, "f64")
          ctx.win:accumulate(ctx.src:sub(first * x, (y - first) * x), peer, first * x * 8, "sum",
                             { origin_type = t, target_type = t })
          t:free()
        end
      else
        for j = 0, y - 1 do
          ctx.win:accumulate(ctx.src:sub(j * x, x), peer, j * x * 8, "sum")
        end
      end
      ctx.win:unlock(peer)
    end
  end,
  check = function(ctx)
    local x, y = dims()
    local left = strided.neighbours()
    ctx.win:lock(rma.rank, "exclusive")
    strided.check(ctx.win:local_buffer("f64"), x, y, x, y,
                  (1.0 + rma.rank) + (1.0 + left) * rma.opt.iterations, nil, "window after the accumulates")
    ctx.win:unlock(rma.rank)
  end,
  teardown = function(ctx) ctx.win:free() end,
}
