-- accumulate under fence: every rank accumulates `count` elements into the same place of
-- every rank's window (its own included), all with the same op — concurrent accumulates to
-- one location, which MPI makes atomic per element and allows only with one op (or no_op).
-- After the closing fence each element must hold the initial value combined with every
-- origin's operand: for the commutative ops in any order, so the expected value is the
-- harness oracle folded over the origins; for replace, one origin's operand per element.
-- Operands are small, so float sums and products are exact in any order. Messages (am):
-- one accumulate per ordered pair of distinct ranks and the closing fence's exchange
-- (counts.fence).
local counts = require("counts")  -- a fence epoch's E(n), docs/message-counts.md

-- Element i of origin r's operand, and the target's initial value.
local function operand(r, i)
  if rma.opt.op == "prod" then return 1 + (r + i) % 2 end
  if rma.opt.op == "land" or rma.opt.op == "lor" or rma.opt.op == "lxor" then return (r + i) % 2 end
  return (r * 7 + i * 3) % 5 + 1
end
local function initial(i) return (i * 5) % 4 + 1 end

return {
  ranks = 4,
  options = {
    op = {"accumulate op", "sum"},
    dtype = {"element type", "i64"},
    count = {"elements per accumulate", 16},
  },
  impl_defined = {
    ["op=no_op"] = "MPI_NO_OP is defined for get_accumulate and fetch_and_op only (MPI-3.1 " ..
                   "§11.3.4): accumulate with no_op is the reference's extension",
  },
  setup = function(ctx)
    local n, t = rma.opt.count, rma.opt.dtype
    ctx.size = n * rma.buffer(1, t):bytes()
    ctx.win = rma.window{ size = ctx.size }
    local mem = ctx.win:local_buffer(t)
    for i = 0, n - 1 do mem:set(i, initial(i)) end
    ctx.mine = rma.buffer(n, t)
    for i = 0, n - 1 do ctx.mine:set(i, operand(rma.rank, i)) end
    ctx.win:fence("noprecede")
  end,
  run = function(ctx)
    for t = 0, rma.size - 1 do ctx.win:accumulate(ctx.mine, t, 0, rma.opt.op) end
    ctx.win:fence("nosucceed")
  end,
  check = function(ctx)
    local mem = ctx.win:local_buffer(rma.opt.dtype)
    for i = 0, rma.opt.count - 1 do
      local got = mem:get(i)
      if rma.opt.op == "replace" then
        local ok = false
        for r = 0, rma.size - 1 do ok = ok or got == operand(r, i) end
        rma.expect(ok, "element " .. i .. " is one origin's operand, got " .. tostring(got))
      else
        local want = initial(i)
        for r = 0, rma.size - 1 do want = rma.oracle(rma.opt.op, rma.opt.dtype, want, operand(r, i)) end
        rma.expect_eq(got, want, "element " .. i)
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    return counts.with_epoch({ accumulate = rma.size * (rma.size - 1) }, "fence", counts.all_pairs())
  end,
}
