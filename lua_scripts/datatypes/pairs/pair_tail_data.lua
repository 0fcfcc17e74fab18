-- pair_tail_data: data may lie in a pair's tail padding (no MPICH original). MPI_LONG_INT and
-- MPI_DOUBLE_INT hold their value and index in bytes 0-11 of 16; the last 4 hold no data, so
-- a target type resized to 12 bytes lays `count` pairs end to end, each one's first 4 bytes
-- in the padding of the one before. No byte is written twice, so MPI allows it as a target
-- of put, accumulate and get_accumulate. Rank 0 runs each call once to rank 1 and once to
-- itself; every byte of the target is checked: each pair where its 12 bytes are, and the
-- bytes after the last one keep their sentinel. A `count` past the eager limit goes by
-- rendezvous, whose fragments must hold whole pairs.
local OPS = {"put", "get", "accumulate", "get_accumulate"}
local SENTINEL = 0xAA
local STEP = 12  -- bytes from one target pair to the next: value (8) and index (4)

local FORMAT = { long_int = "<i8i4", double_int = "<di4" }

-- The target's pair i: (value, index) from its 12 bytes at i * STEP.
local function read_pair(mem, i, fmt)
  local b = {}
  for k = 0, STEP - 1 do b[k + 1] = mem:get(i * STEP + k) end
  local v, x = string.unpack(fmt, string.char(table.unpack(b)))
  return v, x
end

local function write_pair(mem, i, fmt, v, x)
  local s = string.pack(fmt, v, x)
  for k = 1, STEP do mem:set(i * STEP + k - 1, s:byte(k)) end
end

-- Counts what is wrong, reporting the first three; done() asserts there was nothing.
local function tally(what)
  local bad = 0
  return {
    wrong = function(fmt, ...)
      bad = bad + 1
      if bad <= 3 then rma.expect(false, what .. ": " .. string.format(fmt, ...)) end
    end,
    done = function(things) rma.expect(bad == 0, string.format("%s: %d bad %s", what, bad, things)) end,
  }
end

return {
  ranks = 2,
  options = {
    dtype = {"pair dtype with tail padding: long_int or double_int", "long_int"},
    count = {"pairs per call", 5},
  },
  setup = function(ctx)
    local dt = rma.opt.dtype
    ctx.fmt = FORMAT[dt]
    if not ctx.fmt then rma.fail("-o dtype=" .. dt .. ": long_int or double_int") end
    if not pcall(rma.buffer, 1, dt) then rma.skip("no pair dtype " .. dt .. " in this implementation yet") end
    if rma.size < 2 then rma.skip("needs 2 ranks") end
    -- The last pair's padding is 4 bytes past its data; 16 more keep a sentinel.
    ctx.bytes = STEP * rma.opt.count + 4 + 16
    ctx.win = rma.window{ size = ctx.bytes }
  end,
  run = function(ctx)
    local dt, n, win, fmt = rma.opt.dtype, rma.opt.count, ctx.win, ctx.fmt
    for _, target in ipairs({1, 0}) do
      for _, op in ipairs(OPS) do
        -- the target's pairs before: (i + 10, i); the origin's operands: (i + 100, i)
        win:lock(rma.rank, "exclusive")
        local mem = win:local_buffer("u8")
        for k = 0, ctx.bytes - 1 do mem:set(k, SENTINEL) end
        for i = 0, n - 1 do write_pair(mem, i, fmt, i + 10, i) end
        win:unlock(rma.rank)
        rma.barrier()
        if rma.rank == 0 then
          local origin = rma.buffer(n, dt)
          for i = 0, n - 1 do origin:set(i, i + 100, i) end
          local result = rma.buffer(n, dt)
          local packed = rma.type_resized(dt, 0, STEP)
          local args = { target_type = packed, target_count = n }
          win:lock(target, "exclusive")
          if op == "put" then win:put(origin, target, 0, args)
          elseif op == "get" then win:get(result, target, 0, args)
          elseif op == "accumulate" then win:accumulate(origin, target, 0, "maxloc", args)
          else win:get_accumulate(origin, result, target, 0, "replace", args) end
          win:unlock(target)
          packed:free()
          if op == "get" or op == "get_accumulate" then
            local t = tally(string.format("%s to rank %d", op, target))
            for i = 0, n - 1 do
              local v, x = result:get(i)
              if v ~= i + 10 or x ~= i then
                t.wrong("result %d is (%s, %s), want (%d, %d)", i, tostring(v), tostring(x), i + 10, i)
              end
            end
            t.done("results")
          end
        end
        rma.barrier()
        if rma.rank == target then
          win:lock(target, "exclusive")
          local mem = win:local_buffer("u8")
          local t = tally(string.format("%s to rank %d", op, target))
          for i = 0, n - 1 do
            local v, x = read_pair(mem, i, fmt)
            local wv = op == "get" and i + 10 or i + 100  -- maxloc: the origin's is larger
            if v ~= wv or x ~= i then
              t.wrong("pair %d is (%s, %s), want (%d, %d)", i, tostring(v), tostring(x), wv, i)
            end
          end
          for k = STEP * n, ctx.bytes - 1 do
            if mem:get(k) ~= SENTINEL then t.wrong("byte %d after the pairs is 0x%02x", k, mem:get(k)) end
          end
          t.done("pairs or bytes")
          win:unlock(target)
        end
        rma.barrier()
      end
    end
  end,
  teardown = function(ctx) if ctx.win then ctx.win:free() end end,
}
