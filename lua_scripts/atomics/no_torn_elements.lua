-- No torn elements: accumulates are atomic per element, so a reader racing writers on the
-- same elements must see each element either before or after a write, never half of one.
-- Odd ranks overwrite all `count` elements at rank 0 with accumulate(replace), `rounds`
-- times, each time with a pattern whose bytes are all the same (floats: values whose halves
-- all differ); even ranks (rank 0 on its own window too) read them as many times with
-- get_accumulate(no_op). MPI allows exactly this mix — concurrent accumulates to one
-- location with one op, plus no_op — while a plain get racing an accumulate would be
-- erroneous. Every element every reader sees must be a whole pattern (or the initial 0).
-- All ranks work inside one lock_all epoch and flush after each op, so the ops really
-- interleave. Messages (am, eager sizes): 2·rounds + 1 per rank other than 0 — each op and
-- its ack or reply, the first carrying the lock, then the unlock.
local FLOATS = { 1 / 3, -1 / 7, 2 / 3, -5 / 11, 3 / 13 }

local function float_patterns(dtype)
  local out = {}
  for i, v in ipairs(FLOATS) do out[i] = rma.buffer(1, dtype):set(0, v):get(0) end
  return out
end

local function is_float(dtype) return dtype:sub(1, 1) == "f" end

-- 0x01 in every byte of the type: times a byte, the pattern of that byte.
local function ones(dtype)
  local v = 0
  for _ = 1, rma.buffer(1, dtype):bytes() do v = (v << 8) | 1 end
  return v
end

-- Writer w's pattern for round k.
local function pattern(dtype, w, k)
  if is_float(dtype) then
    local p = float_patterns(dtype)
    return p[(w + k) % #p + 1]
  end
  return ((w * 31 + k) % 127 + 1) * ones(dtype)
end

-- Whole: the initial 0, or a pattern (one byte 1..127 repeated, or a listed float).
local function whole(v, allowed, rep)
  if v == 0 then return true end
  if allowed then return allowed[v] == true end
  local byte = v & 0xFF
  return byte >= 1 and byte <= 127 and v == byte * rep
end

return {
  ranks = 3,
  options = {
    dtype = {"element type (i16, i32, i64, f32, f64, ...)", "i64"},
    count = {"elements per op", 512},
    rounds = {"ops per rank", 50},
  },
  setup = function(ctx)
    local t = rma.opt.dtype
    ctx.win = rma.window{ size = rma.opt.count * rma.buffer(1, t):bytes() }
    -- The memory of MPI_Win_allocate starts undefined (MPI-3.1 §11.2.2); "the initial 0"
    -- below needs it zeroed (a local store: no message; setup ends in a barrier).
    ctx.win:local_buffer(t):fill(0)
    ctx.data = rma.buffer(rma.opt.count, t)
    if is_float(t) then
      ctx.allowed = {}
      for _, v in ipairs(float_patterns(t)) do ctx.allowed[v] = true end
    else
      ctx.rep = ones(t)
    end
    ctx.torn, ctx.reads = 0, 0
  end,
  run = function(ctx)
    local t, win = rma.opt.dtype, ctx.win
    local writer = rma.rank % 2 == 1 or rma.size == 1
    local reader = rma.rank % 2 == 0
    win:lock_all()
    for k = 1, rma.opt.rounds do
      if writer then
        win:accumulate(ctx.data:fill(pattern(t, rma.rank, k)), 0, 0, "replace")
        win:flush(0)
      end
      if reader then
        win:get_accumulate(nil, ctx.data, 0, 0, "no_op")
        win:flush(0)
        ctx.reads = ctx.reads + 1
        for i = 0, rma.opt.count - 1 do
          local v = ctx.data:get(i)
          if not whole(v, ctx.allowed, ctx.rep) then
            ctx.torn = ctx.torn + 1
            if ctx.torn <= 3 then rma.log("torn element", i, "in read", k, ":", v) end
          end
        end
      end
    end
    win:unlock_all()
  end,
  check = function(ctx)
    rma.expect_eq(ctx.torn, 0, "torn elements seen in " .. ctx.reads .. " reads")
    if rma.rank == 0 then
      local mem = ctx.win:local_buffer(rma.opt.dtype)
      local bad = 0
      for i = 0, rma.opt.count - 1 do
        if not whole(mem:get(i), ctx.allowed, ctx.rep) then bad = bad + 1 end
      end
      rma.expect_eq(bad, 0, "torn elements in the final window")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    if rma.opt.count * rma.buffer(1, rma.opt.dtype):bytes() > rma.eager_limit then return nil end
    local n = rma.size - 1
    return { total = n * (2 * rma.opt.rounds + 1), unlock = n }
  end,
}
