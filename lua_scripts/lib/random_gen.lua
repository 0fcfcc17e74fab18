-- Random valid RMA programs from a seed (lua_scripts/random/programs.lua): windows of every
-- flavor with per-rank disp_units and typed cells (sizes around rma.eager_limit, now and then
-- a few MiB), then epochs of every kind with ops of every kind, op and dtype. Every rank
-- makes the same program from the same seed (splitmix64 on Lua's 64-bit integers, no
-- math.random). The MPI rules that make the outcome deterministic are kept per epoch and
-- per target cell: a cell is either written by one put, read by gets, or accumulated with
-- one op (several origins only where the order cannot matter; fetching ops only when one
-- origin uses the cell). `require("random_gen")`.
local model = require("random_model")

local G = {}

-- splitmix64: the state is a Lua integer, arithmetic wraps.
local function rng(seed)
  local s = seed
  local r = {}
  function r.next()
    s = s + 0x9E3779B97F4A7C15
    local z = s
    z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * 0x94D049BB133111EB
    return z ~ (z >> 31)
  end
  function r.int(lo, hi) return lo + ((r.next() >> 1) % (hi - lo + 1)) end
  function r.chance(p) return r.int(0, 9999) < p * 10000 end
  function r.pick(list) return list[r.int(1, #list)] end
  return r
end
G.rng = rng

-- The seed of program `index` of a run seeded with `seed`.
function G.program_seed(seed, index)
  local r = rng(seed * 1000003 + index)
  return r.next()
end

local function is_float(dtype) return dtype:sub(1, 1) == "f" end
local function valid(op, dtype) return (pcall(rma.oracle, op, dtype, 0, 0)) end

-- A cell's element count: mostly small, often around the eager limit, rarely a few MiB.
local function cell_count(r, es, dynamic)
  local x = r.int(1, 100)
  local n
  if x <= 45 then n = r.int(0, 16)
  elseif x <= 75 then n = math.max(0, rma.eager_limit // es + r.int(-2, 2))
  elseif x <= 97 then n = r.int(17, 4096)
  else n = r.int(1, 3 * 1024 * 1024) // es end
  if dynamic and n == 0 then n = 1 end
  return n
end

-- A window: flavor, and per rank a disp_unit and cells { dtype, count, off, a, b }.
local function gen_window(r, nranks)
  local flavors = { "allocate", "create", "dynamic" }
  if rma.backend == "shm" then flavors[#flavors + 1] = "shared" end
  local spec = { flavor = r.pick(flavors), ranks = {} }
  if spec.flavor == "create" and r.chance(0.5) then spec.memory = true end
  for rank = 1, nranks do
    local du = r.pick({ 1, 4, 8 })
    if spec.flavor == "dynamic" then du = 1 end
    local cells, off = {}, 0
    local ncells = r.int(0, 4)
    if r.chance(0.9) and ncells == 0 then ncells = 1 end
    for _ = 1, ncells do
      local dtype = r.pick(rma.dtypes)
      local es = model.elem_bytes(dtype)
      local count = cell_count(r, es, spec.flavor == "dynamic")
      local a, b
      if is_float(dtype) then a, b = r.int(-64, 64), r.int(-2, 2)
      elseif dtype:sub(1, 1) == "u" then a, b = r.int(0, 200), r.int(0, 7)
      else a, b = r.int(-100, 100), r.int(-3, 3) end
      cells[#cells + 1] = { dtype = dtype, count = count, off = off, a = a, b = b }
      off = off + (count * es + 7) // 8 * 8
    end
    -- A few guard bytes past the last cell now and then (they must stay untouched; they
    -- are not checked separately, but an op running past its cell lands in the next one).
    spec.ranks[rank] = { du = du, size = off, cells = cells }
  end
  return spec
end

-- The kinds of op an epoch kind allows.
local ACTIVE_OPS = { "put", "get", "accumulate", "get_accumulate", "fetch_and_op",
                     "compare_and_swap" }
local PASSIVE_OPS = { "put", "get", "accumulate", "get_accumulate", "fetch_and_op",
                      "compare_and_swap", "rput", "rget", "raccumulate", "rget_accumulate" }
local FETCH = { get_accumulate = true, rget_accumulate = true, fetch_and_op = true,
                compare_and_swap = true }
local ACC = { accumulate = true, raccumulate = true }
local PUT = { put = true, rput = true }
local GET = { get = true, rget = true }

-- Whether origins other than the first may accumulate into a cell with `op` on `dtype`
-- in one epoch: only where any order gives the same bytes.
local function shareable(op, dtype)
  if op == "replace" then return false end
  if is_float(dtype) then return op == "min" or op == "max" or op == "no_op" end
  return true
end

-- Origin data for an op: iota (integers, and float sums), a constant for float products
-- (powers of two keep them exact).
local function operand_params(r, op, dtype)
  if is_float(dtype) then
    if op == "prod" then return { fill = r.pick({ 1.0, 2.0, 0.5, -1.0 }) } end
    return { a = r.int(-32, 32), b = r.int(-1, 1) }
  end
  if dtype:sub(1, 1) == "u" then return { a = r.int(0, 250), b = r.int(0, 5) } end
  return { a = r.int(-120, 120), b = r.int(-3, 3) }
end

local function small_value(r, dtype)
  if is_float(dtype) then return r.pick({ 0.5, 1.0, 2.0, -1.0, 3.0 }) end
  return r.int(0, 5)
end

-- Picks [start, start+count) inside a cell of `n` elements, starts aligned so that the
-- displacement is whole in the target's disp_unit.
local function pick_range(r, n, es, du, single)
  local step = 1
  while (step * es) % du ~= 0 do step = step + 1 end
  local start = 0
  if n > 0 and r.chance(0.4) then start = r.int(0, (n - 1) // step) * step end
  if single then return start, 1 end
  local rest = n - start
  local count = rest
  if rest > 0 and r.chance(0.4) then count = r.int(0, rest) end
  return start, count
end

-- One op of `kind` from origin `o` in an epoch, using `usage` (per target, per cell, what the
-- epoch already does there) to stay deterministic; nil when no cell fits.
local function gen_op(r, spec, st, w, usage, kind, o, nranks, passive, kind_of_epoch)
  local t = r.int(0, nranks - 1)
  if (kind_of_epoch == "fence" or kind_of_epoch == "lock_all") and r.chance(0.04) then
    -- PROC_NULL: succeeds and does nothing.
    local dtype = r.pick(rma.dtypes)
    local op = { o = o, k = kind, dtype = dtype, count = r.int(0, 4) }
    if FETCH[kind] or ACC[kind] then
      if kind == "compare_and_swap" then return nil end
      op.op = "sum"
      if not valid("sum", dtype) then return nil end
      op.count = (kind == "fetch_and_op") and 1 or op.count
      op.value = small_value(r, dtype)
    end
    local p = operand_params(r, "sum", dtype)
    op.a, op.b, op.fill = p.a, p.b, p.fill
    if kind == "compare_and_swap" or kind == "fetch_and_op" then op.form = "buffer" end
    return op
  end
  local layout = spec.ranks[t + 1]
  if #layout.cells == 0 then
    if PUT[kind] or GET[kind] then
      if spec.flavor == "dynamic" then return nil end
      return { o = o, t = t, k = kind, dtype = "u8", count = 0, a = 0, b = 0, zero = true }
    end
    return nil
  end
  local c = r.int(1, #layout.cells)
  local cell = layout.cells[c]
  usage[t] = usage[t] or {}
  local u = usage[t][c]
  local es = model.elem_bytes(cell.dtype)
  local single = kind == "fetch_and_op" or kind == "compare_and_swap"
  if single and cell.count == 0 then return nil end
  if PUT[kind] then
    if u then return nil end
    usage[t][c] = { mode = "put" }
  elseif GET[kind] then
    if u and u.mode ~= "get" then return nil end
    usage[t][c] = { mode = "get" }
  else
    -- accumulate family
    if u and u.mode ~= "acc" then return nil end
    if kind == "compare_and_swap" and is_float(cell.dtype) then return nil end
    if not u then
      local ops = {}
      for _, name in ipairs(rma.ops) do
        if valid(name, cell.dtype) then ops[#ops + 1] = name end
      end
      local chosen = r.pick(ops)
      if kind == "compare_and_swap" then chosen = "cas" end
      u = { mode = "acc", op = chosen, origins = {}, fetch = false }
      usage[t][c] = u
    end
    if (kind == "compare_and_swap") ~= (u.op == "cas") then return nil end
    local others = false
    for origin in pairs(u.origins) do if origin ~= o then others = true end end
    local fetching = FETCH[kind] ~= nil
    if others and (fetching or u.fetch or not shareable(u.op, cell.dtype)) then return nil end
    if fetching and next(u.origins) ~= nil and others then return nil end
    -- A second origin is also barred from a cell whose single origin used a non-shareable op.
    u.origins[o] = true
    if fetching then u.fetch = true end
  end
  local start, count = pick_range(r, cell.count, es, layout.du, single)
  if spec.flavor == "dynamic" and count == 0 and start == 0 and cell.count == 0 then return nil end
  local op = { o = o, t = t, k = kind, cell = c, start = start, count = count, dtype = cell.dtype }
  if not single and count >= 2 and r.chance(0.25) then
    -- A derived target layout: blocks of `bl` elements every `stride` elements from start
    -- (a type_vector), as many as fit the cell, from the contiguous origin data.
    local bl = r.pick({ 1, 2, 3 })
    local stride = bl * r.pick({ 2, 3 })
    local fit = (cell.count - start - bl) // stride + 1
    if cell.count - start >= bl and fit >= 1 then
      local blocks = r.int(1, math.min(fit, math.max(1, count // bl)))
      op.vec = { bl = bl, stride = stride, blocks = blocks }
      op.count = blocks * bl
    end
  end
  if ACC[kind] or kind == "get_accumulate" or kind == "rget_accumulate" or kind == "fetch_and_op" then
    op.op = u.op
    if FETCH[kind] and r.chance(0.15) then op.op = "no_op"; op.nil_origin = r.chance(0.5) end
    local p = operand_params(r, op.op, cell.dtype)
    op.a, op.b, op.fill = p.a, p.b, p.fill
    if kind == "fetch_and_op" then
      op.value = small_value(r, cell.dtype)
      if op.op == "prod" and is_float(cell.dtype) then op.value = r.pick({ 2.0, 0.5, -1.0 }) end
    end
  elseif kind == "compare_and_swap" then
    local cur = st[w][t + 1][c]:get(start)
    op.compare = r.chance(0.6) and cur or small_value(r, cell.dtype)
    op.value = small_value(r, cell.dtype)
  elseif PUT[kind] then
    local p = operand_params(r, "replace", cell.dtype)
    op.a, op.b, op.fill = p.a, p.b, p.fill
  end
  if kind == "fetch_and_op" or kind == "compare_and_swap" then
    op.form = (passive and r.chance(0.5)) and "value" or "buffer"
  end
  if kind:sub(1, 1) == "r" and kind ~= "replace" then op.wait = r.chance(0.5) end
  return op
end

-- One epoch on window w.
local function gen_epoch(r, prog, st, nranks)
  local w = r.int(1, #prog.windows)
  local spec = prog.windows[w]
  local kind = r.pick({ "fence", "pscw", "lock", "lock_all" })
  local ep = { win = w, kind = kind, ops = {} }
  local passive = kind == "lock" or kind == "lock_all"
  if kind == "fence" then
    ep.nosucceed = r.chance(0.5)
    ep.nostore = r.chance(0.5)
    ep.noput = r.chance(0.5)
  elseif kind == "pscw" then
    ep.noput = r.chance(0.5)
    ep.nostore = r.chance(0.5)
  else
    ep.nocheck = r.chance(0.3)
  end
  if kind == "lock" then ep.locks = {} end
  local usage = {}
  local nops = r.int(0, 8)
  for _ = 1, nops do
    local o = r.int(0, nranks - 1)
    if passive and r.chance(0.12) then
      local fk = r.pick({ "flush", "flush_local", "flush_all", "flush_local_all" })
      local f = { o = o, k = fk }
      if fk == "flush" or fk == "flush_local" then
        -- Only to a target this origin already accesses in the epoch (lock epochs lock
        -- exactly those).
        local targets = {}
        for _, prev in ipairs(ep.ops) do
          if prev.o == o and prev.t ~= nil and prev.cell ~= nil or (prev.o == o and prev.zero) then
            targets[#targets + 1] = prev.t
          end
        end
        if #targets > 0 then f.t = r.pick(targets); ep.ops[#ep.ops + 1] = f end
      else
        local any = false
        for _, prev in ipairs(ep.ops) do if prev.o == o and prev.t ~= nil then any = true end end
        if any or kind == "lock_all" then ep.ops[#ep.ops + 1] = f end
      end
    else
      local kinds = passive and PASSIVE_OPS or ACTIVE_OPS
      local op = gen_op(r, spec, st, w, usage, r.pick(kinds), o, nranks, passive, kind)
      if op then
        ep.ops[#ep.ops + 1] = op
        model.apply(st, w, op)
        if kind == "lock" and op.t ~= nil then
          local key = o .. ":" .. op.t
          if not ep.locks[key] then ep.locks[key] = r.chance(0.5) and "exclusive" or "shared" end
        end
      end
    end
  end
  if kind == "lock" then
    -- An origin holding several locks at once takes them all shared: the am path may
    -- acquire a lock only at the first synchronization that needs it, so the acquisition
    -- order is not program order, and two ranks each holding an exclusive lock while waiting
    -- for the other's would deadlock.
    local targets = {}
    for key in pairs(ep.locks) do
      local o = key:match("^(%d+):")
      targets[o] = (targets[o] or 0) + 1
    end
    for key in pairs(ep.locks) do
      if targets[key:match("^(%d+):")] > 1 then ep.locks[key] = "shared" end
    end
  end
  return ep
end

-- Program `index` of the run seeded `seed`, for `nranks` ranks.
function G.program(seed, index, nranks)
  local r = rng(G.program_seed(seed, index))
  local prog = { seed = seed, index = index, nranks = nranks, windows = {}, epochs = {} }
  for _ = 1, r.int(1, 2) do prog.windows[#prog.windows + 1] = gen_window(r, nranks) end
  local st = model.new(prog)
  for _ = 1, r.int(1, 6) do prog.epochs[#prog.epochs + 1] = gen_epoch(r, prog, st, nranks) end
  return prog
end

return G
