-- Window "allocate" (MPI_Win_allocate, the default flavor) and disp_unit. Displacements are
-- in units of the *target's* disp_unit, which ranks may choose differently: `disp_unit=8`
-- (every rank), 4, 1, or "mixed" (even ranks 8, odd ranks 1). Each rank writes two i32
-- values into its right neighbour's window — one at the last position that fits and one in
-- the middle — computing the displacements from the neighbour's unit, and checks that one
-- element past the end is RMA_RANGE. Messages (am): lock, grant, two puts, ack — 5 per rank.
local SIZE = 64

local function unit_of(r)
  local u = rma.opt.disp_unit
  if u == "mixed" then return r % 2 == 0 and 8 or 1 end
  return tonumber(u)
end

local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  -- RMA_RANGE for an access outside the target window is the reference's check: MPI makes
  -- such an access erroneous only, and does not require detecting it (MPI-3.1 §11.2, §8.3;
  -- errors/misuse's disp_past_end checks it on a library, declared impl_defined there). On a
  -- library the erroneous access is not made, so that the case judges the rest.
  options = { disp_unit = {"8, 4, 1 or mixed", "8"} },
  setup = function(ctx)
    ctx.win = rma.window{ size = SIZE, disp_unit = unit_of(rma.rank) }
    rma.expect_eq(ctx.win:flavor(), "allocate", "the default flavor")
    ctx.a = rma.buffer(1, "i32"):set(0, 1000 + rma.rank)
    ctx.b = rma.buffer(1, "i32"):set(0, 2000 + rma.rank)
  end,
  run = function(ctx)
    local right = (rma.rank + 1) % rma.size
    local u = unit_of(right)
    ctx.win:lock(right, "exclusive")
    ctx.win:put(ctx.a, right, (SIZE - 4) // u)         -- the last i32 (u ≤ 4), or the last unit
    ctx.win:put(ctx.b, right, 32 // u)                 -- byte 32
    if rma.backend ~= "mpi" then
      rma.expect_error("RMA_RANGE", function() ctx.win:put(ctx.a, right, SIZE // u) end)
    end
    ctx.win:unlock(right)
  end,
  check = function(ctx)
    local left = (rma.rank - 1) % rma.size
    local u = unit_of(rma.rank)
    local mem = ctx.win:local_buffer("i32")
    rma.expect_eq(mem:get(((SIZE - 4) // u) * u // 4), 1000 + left, "the put at the last unit")
    rma.expect_eq(mem:get(8), 2000 + left, "the put at byte 32")
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n = rma.size
    if n == 1 then return { total = 0 } end
    return counts.with_epoch({ put = 2 * n, ack = n }, "lock", n)
  end,
}
