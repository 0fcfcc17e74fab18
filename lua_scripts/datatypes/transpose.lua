-- transpose: what the ports of MPICH's transpose1..7 share. An n × n matrix of i32, A[i][j] =
-- i·n + j, goes to (or comes from) another rank as its transpose through the type MPICH builds:
-- a column (vector of n blocks of 1, stride n) repeated n times one int apart (hvector), so
-- that element [j][i] of the receiving matrix gets A[i][j]. The receiving matrix sits in its
-- window between guard rows of a sentinel, which must stay untouched.
local tm = require("typemap")  -- the model the transpose type is compared with

local transpose = {}
transpose.SENTINEL = -7  -- guard rows' value (no matrix element is negative)

function transpose.a(n, i, j) return i * n + j end

-- The guard: one row of n ints before and after the matrix (the window holds n + 2 rows).
function transpose.window_bytes(n) return (n * n + 2 * n) * 4 end

-- Hooks only: the column type and the transpose type, compared with the model.
function transpose.xpose(n)
  local column = rma.type_vector(n, 1, n, "i32")
  local xpose = rma.type_hvector(n, 1, 4, column)
  tm.expect_type(xpose, tm.hvector(n, 1, 4, tm.vector(n, 1, n, "i32")), "transpose type")
  return xpose, column
end

-- Hooks only: the matrix A as a buffer.
function transpose.matrix(n)
  local a = rma.buffer(n * n, "i32")
  for i = 0, n - 1 do for j = 0, n - 1 do a:set(i * n + j, transpose.a(n, i, j)) end end
  return a
end

-- Hooks only: checks an i32 view holding guard row, n × n matrix, guard row: element [j][i]
-- of the matrix must be want(i, j), the guards the sentinel. `first` skips the guard (0 when
-- the view has none).
function transpose.check(view, n, want, label, guarded)
  local bad, nbad = {}, 0
  local base = guarded and n or 0
  for j = 0, n - 1 do
    for i = 0, n - 1 do
      local got, w = view:get(base + j * n + i), want(i, j)
      if got ~= w then
        nbad = nbad + 1
        if #bad < 5 then bad[#bad + 1] = string.format("[%d][%d]: got %d, want %d", j, i, got, w) end
      end
    end
  end
  if guarded then
    for k = 0, n - 1 do
      for _, at in ipairs({ k, n + n * n + k }) do
        local got = view:get(at)
        if got ~= transpose.SENTINEL then
          nbad = nbad + 1
          if #bad < 5 then bad[#bad + 1] = string.format("guard element %d: got %d", at, got) end
        end
      end
    end
  end
  rma.expect(nbad == 0, label .. ": " .. nbad .. " wrong: " .. table.concat(bad, "; "))
end

return transpose
