-- strided: what the ports of MPICH's strided_* and put_bottom tests share. They move a
-- sub_x × sub_y patch of an x × y matrix of doubles (rows of x elements, the patch at
-- [0, 0]) between equal matrices on neighbouring ranks; the checks read the whole matrix:
-- the patch holds the expected value, every other element the sentinel it started with.
local tm = require("typemap")

local strided = {}

-- The patch as an indexed type's arguments: sub_y blocks of sub_x elements, one per row.
function strided.patch_blocks(x, sub_x, sub_y)
  local bl, d = {}, {}
  for j = 0, sub_y - 1 do bl[#bl + 1] = sub_x; d[#d + 1] = j * x end
  return bl, d
end

-- Hooks only: the patch as a real indexed type, its model checked (size, bounds, signature).
function strided.indexed_patch(x, sub_x, sub_y, label)
  local bl, d = strided.patch_blocks(x, sub_x, sub_y)
  local t = rma.type_indexed(bl, d, "f64")
  tm.expect_type(t, tm.indexed(bl, d, "f64"), label or "patch type")
  return t
end

-- Hooks only: checks an f64 view of an x × y matrix: `inside` at the patch's elements,
-- `outside` at every other. Reports the first few wrong elements with their [row, column].
function strided.check(view, x, y, sub_x, sub_y, inside, outside, label)
  local bad, nbad = {}, 0
  for j = 0, y - 1 do
    for i = 0, x - 1 do
      local want = (i < sub_x and j < sub_y) and inside or outside
      local got = view:get(i + j * x)
      if got ~= want then
        nbad = nbad + 1
        if #bad < 5 then
          bad[#bad + 1] = string.format("[%d, %d] %s: got %s, want %s", j, i,
                                        want == inside and "patch" or "gap", tostring(got), tostring(want))
        end
      end
    end
  end
  rma.expect(nbad == 0, label .. ": " .. nbad .. " wrong elements: " .. table.concat(bad, "; "))
  return nbad == 0
end

-- The left neighbour's rank (whose data lands here) and the right one (the peer written to).
function strided.neighbours()
  return (rma.rank + rma.size - 1) % rma.size, (rma.rank + 1) % rma.size
end

return strided
