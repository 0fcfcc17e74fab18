-- pair_padding: a pair type's padding is not data (no MPICH original). MPI_SHORT_INT holds
-- its value in bytes 0-1 and its index in 4-7; MPI_LONG_INT and MPI_DOUBLE_INT hold 12 bytes
-- of 16. A call changes only the bytes its type map names, so the padding keeps what it held:
-- at the target (put, accumulate, get_accumulate, fetch_and_op) and in the origin's result
-- buffer (get, get_accumulate, fetch_and_op). Rank 0 runs each call once to rank 1 and once
-- to itself, with every byte of both sides stamped beforehand (window 0xAA, result 0xBB), then
-- each side's owner checks every byte. A `count` past the eager limit goes by rendezvous; at
-- 8200 elements a transfer is past the size other dtypes move in one copy, which a pair with
-- padding must not take. `layout=vector` puts every other element at the target. From 9
-- ranks on, a shm packet is not a multiple of 16 bytes, yet a rendezvous fragment must
-- still hold whole elements.
local tm = require("typemap")

local OPS = {"put", "get", "accumulate", "get_accumulate", "fetch_and_op"}
local WIN, RES = 0xAA, 0xBB

-- Whether byte k of an element of `dt` is padding.
local function padding(dt, k)
  local p = tm.PAIR[dt]
  local vs = tm.BASIC[p.value].size
  return (k >= vs and k < p.index_at) or k >= p.index_at + 4
end

-- Each element of `buf` (a pair buffer) set to (value(i), i), then its padding stamped.
local function stamp(buf, dt, value, sentinel)
  for i = 0, #buf - 1 do buf:set(i, value(i), i) end
  local ext = tm.PAIR[dt].extent
  local raw = rma.buffer(#buf * ext, "u8"):copy_from(buf)
  for b = 0, #raw - 1 do
    if padding(dt, b % ext) then raw:set(b, sentinel) end
  end
  buf:copy_from(raw)
end

-- Every byte of `buf`: element i at slot `at(i)` holds want(i) as (value, index) when it is
-- one of the call's, else nothing changed; padding and gaps keep `sentinel`.
local function check(buf, dt, n, at, want, sentinel, what)
  local ext = tm.PAIR[dt].extent
  local raw = rma.buffer(#buf * ext, "u8"):copy_from(buf)
  local slot_of = {}
  for i = 0, n - 1 do slot_of[at(i)] = i end
  local bad = 0
  for s = 0, #buf - 1 do
    local i = slot_of[s]
    for k = 0, ext - 1 do
      if (i == nil or padding(dt, k)) and raw:get(s * ext + k) ~= sentinel then
        bad = bad + 1
        if bad <= 3 then
          rma.expect(false, string.format("%s: byte %d of element %d is 0x%02x, want 0x%02x (%s)",
            what, k, s, raw:get(s * ext + k), sentinel, i and "padding" or "not written"))
        end
      end
    end
    if i then
      local v, x = buf:get(s)
      local wv, wx = want(i)
      if v ~= wv or x ~= wx then
        bad = bad + 1
        if bad <= 3 then
          rma.expect(false, string.format("%s: element %d is (%s, %s), want (%s, %s)", what, s,
                                          tostring(v), tostring(x), tostring(wv), tostring(wx)))
        end
      end
    end
  end
  rma.expect(bad == 0, string.format("%s: %d bad bytes or elements", what, bad))
end

return {
  ranks = 2,
  options = {
    dtype = {"pair dtype with padding: short_int, long_int or double_int", "long_int"},
    count = {"elements per call (fetch_and_op: 1)", 3},
    layout = {"target side: contiguous, or vector (every other element)", "contiguous"},
  },
  setup = function(ctx)
    local dt = rma.opt.dtype
    if not pcall(rma.buffer, 1, dt) then rma.skip("no pair dtype " .. dt .. " in this implementation yet") end
    if rma.size < 2 then rma.skip("needs 2 ranks") end
    ctx.ext = tm.PAIR[dt].extent
    ctx.slots = 2 * rma.opt.count
    ctx.win = rma.window{ size = ctx.slots * ctx.ext, disp_unit = ctx.ext }
  end,
  run = function(ctx)
    local dt, n, win = rma.opt.dtype, rma.opt.count, ctx.win
    local vector = rma.opt.layout == "vector"
    for _, target in ipairs({1, 0}) do
      for _, op in ipairs(OPS) do
        local m = op == "fetch_and_op" and 1 or n
        local spread = vector and op ~= "fetch_and_op"
        local at = spread and function(i) return 2 * i end or function(i) return i end
        -- the target's elements before: (i + 10, i); the origin's operands: (i + 100, i)
        win:lock(rma.rank, "exclusive")
        stamp(win:local_buffer(dt), dt, function(s) return s + 10 end, WIN)
        local used, mem = {}, win:local_buffer("u8")
        for i = 0, m - 1 do used[at(i)] = true end
        for s = 0, ctx.slots - 1 do
          if not used[s] then
            for k = 0, ctx.ext - 1 do mem:set(s * ctx.ext + k, WIN) end
          end
        end
        win:unlock(rma.rank)
        rma.barrier()
        local result
        if rma.rank == 0 then
          local origin = rma.buffer(m, dt)
          stamp(origin, dt, function(i) return i + 100 end, 0x11)
          result = rma.buffer(m, dt):copy_from(rma.buffer(m * ctx.ext, "u8"):fill(RES))
          local args = spread and { target_type = rma.type_vector(m, 1, 2, dt) } or nil
          win:lock(target, "exclusive")
          if op == "put" then win:put(origin, target, 0, args)
          elseif op == "get" then win:get(result, target, 0, args)
          elseif op == "accumulate" then win:accumulate(origin, target, 0, "replace", args)
          elseif op == "get_accumulate" then
            win:get_accumulate(origin, result, target, 0, "maxloc", args)
          else win:fetch_and_op({100, 0}, target, 0, "replace", dt, result) end
          win:unlock(target)
          if args then args.target_type:free() end
        end
        rma.barrier()
        -- the target's slots: the call's elements and what they now hold
        local writes = op ~= "get"
        if rma.rank == target then
          win:lock(target, "exclusive")
          check(win:local_buffer(dt), dt, m, at, function(i)
            -- maxloc keeps the larger value, on a tie the lower index (the origin's, i)
            local keep = not writes or (op == "get_accumulate" and at(i) + 10 > i + 100)
            if keep then return at(i) + 10, at(i) end
            return i + 100, i
          end, WIN, string.format("%s to rank %d: target", op, target))
          win:unlock(target)
        end
        rma.barrier()
        if rma.rank == 0 and op ~= "put" and op ~= "accumulate" then
          check(result, dt, m, function(i) return i end,
                function(i) return at(i) + 10, at(i) end, RES,
                string.format("%s to rank %d: result", op, target))
        end
        rma.barrier()
      end
    end
  end,
  teardown = function(ctx) if ctx.win then ctx.win:free() end end,
}
