-- compare_and_swap on every integer dtype (floats must raise TYPE on the reference), in its
-- two forms (`form=value`: the old value returned at once, under lock or lock_all;
-- `form=buffer`: into a result buffer, any epoch). Each rank works on its right neighbour's
-- window, one element per (dtype, case), three CAS in a row on it: compare with the current value
-- (swaps in a), compare with the stale initial value (must not swap), compare with a
-- (swaps in b). Each returns the value it found — init, a, a — and the element ends as b.
-- The cases include each type's extreme values, where a sign or width mistake shows.
-- Messages (am), n ≥ 2 ranks, M CAS per rank: as for fetch_and_op_ops.lua — value form
-- n·(2M + 1); buffer form n·(2M + 2) under lock/lock_all, 2nM + E(n) under fence,
-- n·(2M + 1) under pscw.
local INTS = {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"}

-- {init, a, b} triples for a dtype: small values and the type's extremes.
local function cases(dtype)
  local w = tonumber(dtype:sub(2))
  local signed = dtype:sub(1, 1) == "i"
  local hi, lo
  if signed then hi, lo = (1 << (w - 1)) - 1, -(1 << (w - 1))
  elseif w < 64 then hi, lo = (1 << w) - 1, 0
  else hi, lo = math.maxinteger, 0 end
  return { {1, 2, 3}, {hi, lo, hi - 1}, {lo, hi, 7}, {0, 85, 51} }
end

local counts = require("counts")    -- per-op header size (lib/)
local atomics = require("atomics")  -- options, the two forms, messages (lib/)

return {
  ranks = 2,
  options = atomics.options("form", "sync"),
  setup = function(ctx)
    atomics.check_form("compare_and_swap")
    ctx.slots, ctx.cas, ctx.held = {}, 0, 0
    local off = 0
    for _, dtype in ipairs(INTS) do
      local es = rma.buffer(1, dtype):bytes()
      for _, c in ipairs(cases(dtype)) do
        -- One 8-byte slot per case: disp is in bytes (disp_unit 1).
        ctx.slots[#ctx.slots + 1] = { dtype = dtype, es = es, disp = off, init = c[1], a = c[2],
                                      b = c[3], res = rma.buffer(3, dtype) }
        off = off + 8
        ctx.cas = ctx.cas + 3
        ctx.held = ctx.held + 3 * (counts.HEADER + 2 * es)
      end
    end
    ctx.win = rma.window{ size = off }
    for _, s in ipairs(ctx.slots) do
      ctx.win:local_buffer(s.dtype):set(s.disp // s.es, s.init)
    end
  end,
  run = function(ctx)
    atomics.ring_over_slots(ctx, function(win, right, s)
      local steps = { {s.init, s.a}, {s.init, s.b}, {s.a, s.b} }  -- {compare, value}
      for k, st in ipairs(steps) do
        atomics.fetch(s.res, k - 1, function(r)
          return win:compare_and_swap(st[1], st[2], right, s.disp, s.dtype, r)
        end)
      end
    end, function(win, right)
      -- A CAS on a float is erroneous; that the reference rejects it with TYPE is its own
      -- check, which MPI does not require of a library (errors/misuse's cas_on_float says
      -- so as impl_defined). On a library the erroneous call is not made here, so that this
      -- case judges the library's CAS on integers alone.
      if rma.backend == "mpi" then return end
      for _, f in ipairs({"f32", "f64"}) do
        rma.expect_error("TYPE", function()
          win:compare_and_swap(0, 1, right, 0, f, rma.buffer(1, f))
        end)
      end
    end)
  end,
  check = function(ctx)
    for _, s in ipairs(ctx.slots) do
      local what = s.dtype .. " " .. s.init .. "→" .. s.a .. "→" .. s.b
      rma.expect_eq(s.res:get(0), s.init, what .. ": first CAS found the initial value")
      rma.expect_eq(s.res:get(1), s.a, what .. ": stale compare found a")
      rma.expect_eq(s.res:get(2), s.a, what .. ": third CAS found a")
      rma.expect_eq(ctx.win:local_buffer(s.dtype):get(s.disp // s.es), s.b, what .. ": final")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function(ctx) return atomics.fetch_messages("compare_and_swap", ctx.cas,
                                                                 ctx.held) end,
}
