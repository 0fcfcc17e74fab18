-- dtpool: a pool of derived-datatype layouts in the spirit of MPICH's DTPools
-- (test/mpi/dtpools), and the two runners the pool-driven patterns share:
--   dtpool.transfer_case{...}  one op (put, get, accumulate, get_accumulate) from rank 0 to
--                              rank size-1 under fence, pscw, lock or lock_all+flush
--                              (dtpool_sweep, accfence1, accpscw1, putfence1, getfence1,
--                              putpscw1);
--   dtpool.lock_case{...}      MPICH's lock_x_dt.c: accumulate then get_accumulate, both
--                              replace, under lock or lock_all with the flush variants
--                              (lock_dt*, lockall_dt*, lock_contention_dt).
-- A pool draw gives, for a signature of `count` units (one dtype element, or with
-- unit=struct a {dtype, f64} struct), a type and a type count whose product carries exactly
-- that signature. Origin, target and result layouts are
-- drawn separately from one seeded generator, so every rank draws the same ones. Every check
-- is on bytes: the memory a layout touches must hold the data the model (lib/typemap.lua)
-- says at each element, and every other byte its sentinel.
local tm = require("typemap")

local dtpool = {}

-- Sentinels, one per kind of memory, all >= 0xA5 so that no pool value (small, positive)
-- packs to a repeated sentinel byte: a write that never happened cannot look like one.
dtpool.TARGET_GAP, dtpool.ORIGIN_GAP, dtpool.RESULT_GAP = 0xA5, 0xC3, 0xE7
local GUARD = 16  -- sentinel bytes before and after every layout's span

-- The signature counts MPICH's dtpools tests run (test/mpi/maint/dtp-test-config.txt);
-- above LONG_AT a case needs -o long=true.
dtpool.COUNTS = { 1, 17, 512, 1018, 65530 }
dtpool.LONG_AT = 4096

dtpool.KINDS = { "basic", "contiguous", "vector", "hvector", "indexed", "indexed_block",
                 "hindexed", "hindexed_block", "subarray_c", "subarray_fortran", "struct",
                 "resized", "negative", "nested2", "nested3" }

-- A deterministic generator (64-bit LCG; integer arithmetic wraps in Lua 5.4): the same seed
-- gives the same draws on every rank and every run, whatever math.random does.
function dtpool.rng(seed)
  local state = seed * 2654435761 + 97
  local function next_int(n)
    state = state * 6364136223846793005 + 1442695040888963407
    return ((state >> 33) % n) + 1
  end
  return next_int
end

local function divisors(n)
  local d = {}
  for i = 1, n do if n % i == 0 then d[#d + 1] = i end end
  return d
end

local function pick(rnd, list) return list[rnd(#list)] end

-- A factor of n for one level: a proper one (neither 1 nor n) when n has any, so that
-- nested levels and blocks have more than one element where they can.
local function factor(rnd, n)
  local d = {}
  for _, x in ipairs(divisors(n)) do if x ~= 1 and x ~= n then d[#d + 1] = x end end
  if #d == 0 then return pick(rnd, divisors(n)) end
  return pick(rnd, d)
end

-- Splits e into `parts` positive block lengths (as even as the draw makes them).
local function split(rnd, e, parts)
  parts = math.min(parts, e)
  local bl, left = {}, e
  for k = 1, parts do
    local rest = parts - k
    local n = (rest == 0) and left or rnd(left - rest)
    n = math.min(n, left - rest)
    bl[k] = n
    left = left - n
  end
  return bl
end

-- Displacements (in units) for blocks of the given lengths, gaps of 1..3 units between
-- them; `reducing` places them in decreasing address order (type-map order ≠ address order).
local function displacements(rnd, bl, reducing)
  local d, at = {}, 0
  local order = {}
  for k = 1, #bl do order[k] = reducing and (#bl - k + 1) or k end
  for _, k in ipairs(order) do
    d[k] = at
    at = at + bl[k] + rnd(3)
  end
  return d
end

-- One level over `old` (a model) holding `e` instances of it, of the given kind. Every
-- layout keeps its data bytes distinct and its extent covering its data, so instances and
-- nested levels never overlap.
local function level(kind, rnd, e, old)
  local ext = tm.extent(old)
  if kind == "contiguous" then return tm.contiguous(e, old)
  elseif kind == "vector" or kind == "negative_vector" then
    local bl = factor(rnd, e)
    local stride = bl + rnd(3)
    if kind == "negative_vector" then stride = -stride end
    return tm.vector(e // bl, bl, stride, old)
  elseif kind == "hvector" or kind == "negative_hvector" then
    local bl = factor(rnd, e)
    local stride = (bl + rnd(3)) * ext
    if kind == "negative_hvector" then stride = -stride end
    return tm.hvector(e // bl, bl, stride, old)
  elseif kind == "indexed" or kind == "hindexed" then
    local bl = split(rnd, e, rnd(6))
    local d = displacements(rnd, bl, rnd(2) == 1)
    if kind == "indexed" then return tm.indexed(bl, d, old) end
    for k = 1, #d do d[k] = d[k] * ext end
    return tm.hindexed(bl, d, old)
  elseif kind == "indexed_block" or kind == "hindexed_block" then
    local b = factor(rnd, e)
    local bl = {}
    for k = 1, e // b do bl[k] = b end
    local d = displacements(rnd, bl, rnd(2) == 1)
    if kind == "indexed_block" then return tm.indexed_block(b, d, old) end
    for k = 1, #d do d[k] = d[k] * ext end
    return tm.hindexed_block(b, d, old)
  elseif kind == "subarray_c" or kind == "subarray_fortran" then
    -- e = product of the subsizes over 2 or 3 dimensions; each size a little larger.
    local sub = {}
    local left = e
    local ndims = rnd(2) + 1
    for k = 1, ndims - 1 do
      sub[k] = factor(rnd, left)
      left = left // sub[k]
    end
    sub[ndims] = left
    local sizes, starts = {}, {}
    for k = 1, ndims do
      sizes[k] = sub[k] + rnd(3) - 1
      starts[k] = rnd(sizes[k] - sub[k] + 1) - 1
    end
    return tm.subarray(sizes, sub, starts, kind == "subarray_c" and "c" or "fortran", old)
  elseif kind == "struct" then
    -- Blocks of `old` at byte displacements with gaps; one member type throughout, so that
    -- accumulate (one basic type) may use it too.
    local bl = split(rnd, e, rnd(4))
    local d = displacements(rnd, bl, rnd(2) == 1)
    local types = {}
    for k = 1, #d do d[k] = d[k] * ext; types[k] = old end
    return tm.struct(bl, d, types)
  elseif kind == "resized" then
    -- A vector or contiguous run, its bounds moved: lb below the data (DTPools' LOW) or
    -- above its start (HIGH), the extent at least the data's span (so instances never
    -- overlap) and up to two units past it; whole units, so every element stays aligned.
    local inner = (rnd(2) == 1) and tm.contiguous(e, old)
                  or tm.vector(e, 1, 1 + rnd(2), old)
    local span = inner.true_ub - inner.true_lb
    local lb = inner.true_lb + (rnd(5) - 3) * ext
    local extent = span + (rnd(3) - 1) * ext
    return tm.resized(inner, lb, extent)
  end
  error("dtpool: unknown level kind '" .. tostring(kind) .. "'")
end

local FLAT = { "contiguous", "vector", "hvector", "indexed", "indexed_block", "hindexed",
               "hindexed_block", "subarray_c", "subarray_fortran", "struct", "resized",
               "negative_vector", "negative_hvector" }

-- The unit a signature repeats: one dtype element, or (unit "struct") a struct of a dtype
-- element and an f64 at byte 8 (extent 16), so that put and get carry two basic types.
function dtpool.unit(dtype, unit)
  if unit == "struct" then return tm.struct({ 1, 1 }, { 0, 8 }, { dtype, "f64" }) end
  return tm.basic(dtype)
end

-- Draws a layout of `kind` carrying `n` units (dtpool.unit): returns the model and its count.
function dtpool.draw(kind, n, dtype, rnd, unit)
  if kind == "mixed" then kind = pick(rnd, dtpool.KINDS) end
  local base = dtpool.unit(dtype, unit)
  if kind == "basic" then return base, n end
  -- Elements per instance: a divisor of n (the rest is the type count), at most 1024 so that
  -- large signatures go as many instances.
  local ds = {}
  for _, d in ipairs(divisors(n)) do if d <= 1024 then ds[#ds + 1] = d end end
  -- The larger half of them: instances of several elements, a few instances per op.
  local e = ds[#ds - rnd((#ds + 1) // 2) + 1]
  local count = n // e
  if kind == "negative" then
    return level(rnd(2) == 1 and "negative_vector" or "negative_hvector", rnd, e, base), count
  elseif kind == "nested2" or kind == "nested3" then
    local depth = kind == "nested2" and 2 or 3
    -- Factor e over the levels, innermost first.
    local m, left = base, e
    for lvl = 1, depth do
      local here = (lvl == depth) and left or factor(rnd, left)
      left = left // here
      m = level(pick(rnd, FLAT), rnd, here, m)
    end
    return m, count
  end
  return level(kind, rnd, e, base), count
end

-- ---------------------------------------------------------------------------------------
-- Memory: a layout placed in a buffer with GUARD sentinel bytes around its span.
-- ---------------------------------------------------------------------------------------

-- Where count × model goes in a buffer of its own: the buffer's bytes and the byte of the
-- buffer where the type's offset 0 lies (at GUARD, or higher when data lies below offset 0),
-- so that at least GUARD sentinel bytes precede and follow the data.
function dtpool.placement(m, count)
  local lo, hi = tm.span(m, count)
  local base = GUARD - math.min(lo, 0)
  return base + hi + GUARD, base
end

-- The image of a buffer holding count × model at `base`: `gap` everywhere, element k = the
-- value `value(k, dtype)` gives for its dtype (value nil: leave the gap bytes).
function dtpool.image(nbytes, base, entries, gap, value)
  local img = tm.image(nbytes, gap)
  if value then
    for k, e in ipairs(entries) do tm.image_put(img, base + e[1], e[2], value(k - 1, e[2])) end
  end
  return img
end

-- Hooks only. The (buffer, type, count) a local layout takes: a view starting at the type's
-- offset 0 when no data lies below it; otherwise the whole buffer and the type wrapped in an
-- hindexed block that moves it up (an origin layout must stay inside its buffer, and its
-- offsets count from the buffer's first byte). A basic layout is its dtype's name, as a
-- layout's type may be. The last value lists the types made here, for free_all.
function dtpool.local_layout(buf, base, m, count)
  local lo = tm.span(m, count)
  local real = tm.realize(m)
  if lo >= 0 then
    return buf:sub(base, buf:count() - base), real, count, { real }
  end
  local wrapped = rma.type_hindexed({ count }, { base }, real)
  return buf, wrapped, 1, { real, wrapped }
end

-- Hooks only: the target type for a layout (a basic one: its dtype's name).
function dtpool.target_type(m) return tm.realize(m) end

-- Hooks only: frees the types of a list (dtype names are not types: skipped). Freeing a type
-- while an op that uses it is pending is allowed (MPI keeps it until the op is done).
function dtpool.free_all(list)
  for _, t in ipairs(list) do if type(t) ~= "string" then t:free() end end
end

-- ---------------------------------------------------------------------------------------
-- Shared option parsing and layout drawing
-- ---------------------------------------------------------------------------------------

local function seed_of(opt, salt)
  -- Mixes the seed with the kind, dtype and salt so that each case draws its own layouts.
  local h = opt.seed
  for c in (opt.kind .. "/" .. opt.dtype .. "/" .. salt):gmatch(".") do
    h = (h * 31 + c:byte()) % 2147483647
  end
  return h
end

-- Draws the origin, target and result layouts of a case (the same on every rank).
function dtpool.layouts(opt, salt, unit)
  local rnd = dtpool.rng(seed_of(opt, salt or ""))
  local L = {}
  L.n, L.dtype, L.unit = opt.count, opt.dtype, unit
  L.om, L.oc = dtpool.draw(opt.kind, L.n, L.dtype, rnd, L.unit)
  L.tm, L.tc = dtpool.draw(opt.kind, L.n, L.dtype, rnd, L.unit)
  L.rm, L.rc = dtpool.draw(opt.kind, L.n, L.dtype, rnd, L.unit)
  L.oe, L.te, L.re = tm.entries(L.om, L.oc), tm.entries(L.tm, L.tc), tm.entries(L.rm, L.rc)
  L.obytes, L.obase = dtpool.placement(L.om, L.oc)
  L.tbytes, L.tbase = dtpool.placement(L.tm, L.tc)
  L.rbytes, L.rbase = dtpool.placement(L.rm, L.rc)
  L.text = string.format("origin %d x %s; target %d x %s", L.oc, tm.describe(L.om), L.tc,
                         tm.describe(L.tm))
  return L
end

-- The options every pool pattern takes (kind, count, seed, dtype, long).
local function pool_options(o)
  o.kind = o.kind or { "layout kind (" .. table.concat(dtpool.KINDS, ", ") .. ", or mixed)", "mixed" }
  o.count = o.count or { "signature: elements of dtype per op (MPICH: 1, 17, 512, 1018, 65530)", 17 }
  o.seed = o.seed or { "seed of the layout draws", 1 }
  o.dtype = o.dtype or { "basic dtype of the signature", "i32" }
  o.long = o.long or { "allow counts above " .. dtpool.LONG_AT .. " (65530: MPICH's large case)", false }
  o.flavor = o.flavor or { "target window: create (MPICH's tests: MPI_Win_create) or allocate", "create" }
  return o
end

local function too_long()
  if rma.opt.count > dtpool.LONG_AT and not rma.opt.long then
    rma.skip("count " .. rma.opt.count .. " needs -o long=true")
  end
  if rma.opt.count < 1 then rma.fail("count must be >= 1") end
end

-- Element k's values: what the origin sends (salt 0), what the target holds first (salt 1);
-- `dt`, the element's own dtype, when the signature has more than one.
local function val(dtype, salt) return function(k, dt) return tm.value(dt or dtype, k, salt) end end

-- ---------------------------------------------------------------------------------------
-- transfer_case: one op, one epoch, every byte checked
-- ---------------------------------------------------------------------------------------

-- Opens the epoch `sync` names around `issue()` (which the origin runs). Fence and pscw
-- involve the target; lock and lock_all only the origin.
local function epoch(win, sync, origin, target, issue)
  local me = rma.rank
  if sync == "fence" then
    win:fence()
    if me == origin then issue() end
    win:fence()
  elseif sync == "pscw" then
    if me == target then win:post({ origin }) end
    if me == origin then
      win:start({ target }); issue(); win:complete()
    end
    if me == target then win:wait() end
  elseif sync == "lock" then
    if me == origin then win:lock(target, "shared"); issue(); win:unlock(target) end
  elseif sync == "lock_all" then
    if me == origin then win:lock_all(); issue(); win:flush(target); win:unlock_all() end
  else
    rma.fail("unknown sync '" .. tostring(sync) .. "'")
  end
end

-- `fixed`: settings the pattern pins (op, sync, acc_op); the others are options.
function dtpool.transfer_case(fixed)
  fixed = fixed or {}
  local opts = pool_options({})
  if not fixed.op then opts.op = { "put, get, accumulate or get_accumulate", "put" } end
  if not fixed.sync then opts.sync = { "fence, pscw, lock or lock_all (with flush)", "fence" } end
  if not fixed.acc_op then
    opts.acc_op = { "op of accumulate and get_accumulate (replace, sum, ...; no_op for get_accumulate)", "replace" }
  end
  if not fixed.unit then
    opts.unit = { "what the signature repeats: basic (one dtype element) or struct " ..
                  "({dtype, f64}; put and get only)", "basic" }
  end
  local function setting(name) return fixed[name] or rma.opt[name] end

  return {
    ranks = 2,
    options = opts,
    setup = function(ctx)
      too_long()
      local op, dtype, unit = setting("op"), rma.opt.dtype, setting("unit")
      if unit == "struct" and op ~= "put" and op ~= "get" then
        rma.skip("accumulate needs one basic type throughout: unit=struct is for put and get")
      end
      local L = dtpool.layouts(rma.opt, op .. (unit == "struct" and "/struct" or ""), unit)
      ctx.L, ctx.op, ctx.sync, ctx.acc_op = L, op, setting("sync"), setting("acc_op")
      ctx.origin, ctx.target = 0, rma.size - 1
      rma.log(L.text)
      local s = tm.dtype_size(dtype)
      -- The target window: its layout's span with guards, disp_unit the element size (the
      -- MPICH tests' base-type extent), so the displacement is counted in elements.
      ctx.win = rma.window{ size = L.tbytes, disp_unit = s, flavor = rma.opt.flavor }
      ctx.disp = L.tbase // s
      local init = dtpool.image(L.tbytes, L.tbase, L.te, dtpool.TARGET_GAP, val(dtype, 1))
      if rma.rank == ctx.target then tm.store(ctx.win:local_buffer("u8"), init) end
      if rma.rank == ctx.origin then
        local sends = op ~= "get" and not (op == "get_accumulate" and ctx.acc_op == "no_op")
        ctx.oimg = dtpool.image(L.obytes, L.obase, L.oe, dtpool.ORIGIN_GAP,
                                op ~= "get" and val(dtype, 0) or nil)
        ctx.obuf = tm.to_buffer(ctx.oimg)
        ctx.sends = sends
        if op == "get_accumulate" then
          ctx.rimg = dtpool.image(L.rbytes, L.rbase, L.re, dtpool.RESULT_GAP, nil)
          ctx.rbuf = tm.to_buffer(ctx.rimg)
        end
      end
    end,
    run = function(ctx)
      local L, op, win = ctx.L, ctx.op, ctx.win
      local function issue()
        local obuf, ot, oc, otypes = dtpool.local_layout(ctx.obuf, L.obase, L.om, L.oc)
        local tt = dtpool.target_type(L.tm)
        local layout = { origin_type = ot, origin_count = oc, target_type = tt, target_count = L.tc }
        local frees = { tt }
        for _, t in ipairs(otypes) do frees[#frees + 1] = t end
        tm.expect_type(otypes[1], L.om, "origin type")
        tm.expect_type(tt, L.tm, "target type")
        if op == "put" then win:put(obuf, ctx.target, ctx.disp, layout)
        elseif op == "get" then win:get(obuf, ctx.target, ctx.disp, layout)
        elseif op == "accumulate" then win:accumulate(obuf, ctx.target, ctx.disp, ctx.acc_op, layout)
        elseif op == "get_accumulate" then
          local rbuf, rt, rc, rtypes = dtpool.local_layout(ctx.rbuf, L.rbase, L.rm, L.rc)
          layout.result_type, layout.result_count = rt, rc
          for _, t in ipairs(rtypes) do frees[#frees + 1] = t end
          if not ctx.sends then
            -- MPI passes no origin data with no_op; the layout then names none either.
            layout.origin_type, layout.origin_count = nil, nil
            obuf = nil
          end
          win:get_accumulate(obuf, rbuf, ctx.target, ctx.disp, ctx.acc_op, layout)
        else rma.fail("unknown op '" .. tostring(op) .. "'") end
        dtpool.free_all(frees)
      end
      epoch(win, ctx.sync, ctx.origin, ctx.target, issue)
    end,
    check = function(ctx)
      local L, op, dtype = ctx.L, ctx.op, rma.opt.dtype
      local function explain(entries, base)
        return function() return tm.owners(entries, base) end
      end
      if rma.rank == ctx.target then
        local final
        if op == "put" then final = val(dtype, 0)
        elseif op == "get" then final = val(dtype, 1)
        else
          local acc_op = ctx.acc_op
          final = function(k) return tm.apply(acc_op, dtype, tm.value(dtype, k, 1), tm.value(dtype, k, 0)) end
        end
        local want = dtpool.image(L.tbytes, L.tbase, L.te, dtpool.TARGET_GAP, final)
        tm.expect_image(ctx.win:local_buffer("u8"), want, op .. " target window (" .. L.text .. ")",
                        explain(L.te, L.tbase))
      end
      if rma.rank == ctx.origin then
        if op == "get" then
          local want = dtpool.image(L.obytes, L.obase, L.oe, dtpool.ORIGIN_GAP, val(dtype, 1))
          tm.expect_image(ctx.obuf, want, "get: local buffer (" .. L.text .. ")", explain(L.oe, L.obase))
        else
          tm.expect_image(ctx.obuf, ctx.oimg, op .. ": origin buffer unchanged", explain(L.oe, L.obase))
        end
        if op == "get_accumulate" then
          local want = dtpool.image(L.rbytes, L.rbase, L.re, dtpool.RESULT_GAP, val(dtype, 1))
          tm.expect_image(ctx.rbuf, want, "get_accumulate: result buffer (result " .. L.rc .. " x " ..
                          tm.describe(L.rm) .. ")", explain(L.re, L.rbase))
        end
      end
    end,
    teardown = function(ctx) if ctx.win then ctx.win:free() end end,
  }
end

-- ---------------------------------------------------------------------------------------
-- lock_case: MPICH's lock_x_dt.c
-- ---------------------------------------------------------------------------------------

-- `v`: lock ("lock" or "lock_all"), flush ("none", "flush", "flush_all"), flush_local
-- ("none", "flush_local", "flush_local_all"), origins ("single" or "multi"), ranks.
function dtpool.lock_case(v)
  local opts = pool_options({})
  return {
    ranks = v.ranks or 2,
    options = opts,
    setup = function(ctx)
      too_long()
      if rma.size < 2 then rma.skip("needs an origin and a target: 2 ranks or more") end
      local dtype = rma.opt.dtype
      local L = dtpool.layouts(rma.opt, "lock")
      ctx.L = L
      rma.log(L.text)
      -- Who is what, as lock_x_dt.c: one origin (rank 0) and one target (the last rank), or
      -- one origin and every other rank a target (lock_all), or every rank but the last an
      -- origin of the last (contention).
      local last = rma.size - 1
      ctx.origins, ctx.targets = {}, {}
      if v.origins == "multi" then
        for r = 0, last - 1 do ctx.origins[r] = true end
        ctx.targets[last] = true
      elseif v.lock == "lock_all" then
        ctx.origins[0] = true
        for r = 1, last do ctx.targets[r] = true end
      else
        ctx.origins[0] = true
        ctx.targets[last] = true
      end
      local s = tm.dtype_size(dtype)
      ctx.win = rma.window{ size = L.tbytes, disp_unit = s, flavor = rma.opt.flavor }
      ctx.disp = L.tbase // s
      if ctx.targets[rma.rank] then
        tm.store(ctx.win:local_buffer("u8"),
                 dtpool.image(L.tbytes, L.tbase, L.te, dtpool.TARGET_GAP, val(dtype, 1)))
      end
    end,
    run = function(ctx)
      local L, win, me, dtype = ctx.L, ctx.win, rma.rank, rma.opt.dtype
      local targets = {}
      for r = 0, rma.size - 1 do if ctx.targets[r] then targets[#targets + 1] = r end end
      local function explain(entries, base) return function() return tm.owners(entries, base) end end
      for _, pass in ipairs({ "accumulate", "get_accumulate" }) do
        if ctx.origins[me] then
          -- The origin's data (salt 0), fresh for each pass: a flush_local variant
          -- overwrote it in the pass before.
          local oimg = dtpool.image(L.obytes, L.obase, L.oe, dtpool.ORIGIN_GAP, val(dtype, 0))
          local obuf = tm.to_buffer(oimg)
          local rbufs, frees = {}, {}
          if v.lock == "lock_all" then win:lock_all() else win:lock(targets[1], "shared") end
          for _, t in ipairs(targets) do
            local ob, ot, oc, otypes = dtpool.local_layout(obuf, L.obase, L.om, L.oc)
            local tt = dtpool.target_type(L.tm)
            local layout = { origin_type = ot, origin_count = oc, target_type = tt, target_count = L.tc }
            for _, x in ipairs(otypes) do frees[#frees + 1] = x end
            frees[#frees + 1] = tt
            if pass == "accumulate" then
              win:accumulate(ob, t, ctx.disp, "replace", layout)
            else
              local rimg = dtpool.image(L.rbytes, L.rbase, L.re, dtpool.RESULT_GAP, nil)
              rbufs[t] = tm.to_buffer(rimg)
              local rb, rt, rc, rtypes = dtpool.local_layout(rbufs[t], L.rbase, L.rm, L.rc)
              layout.result_type, layout.result_count = rt, rc
              for _, x in ipairs(rtypes) do frees[#frees + 1] = x end
              win:get_accumulate(ob, rb, t, ctx.disp, "replace", layout)
            end
          end
          dtpool.free_all(frees)
          -- Local completion, then the origin buffer is reused at once: what the targets
          -- receive must be what it held at the call.
          if v.flush_local ~= "none" then
            if v.flush_local == "flush_local_all" then win:flush_local_all()
            else for _, t in ipairs(targets) do win:flush_local(t) end end
            tm.store(obuf, dtpool.image(L.obytes, L.obase, L.oe, dtpool.ORIGIN_GAP, val(dtype, 7)))
          end
          -- With a flush the targets check while the epoch is still open.
          if v.flush ~= "none" then
            if v.flush == "flush_all" then win:flush_all()
            else for _, t in ipairs(targets) do win:flush(t) end end
            rma.barrier(); rma.barrier()
          end
          if v.lock == "lock_all" then win:unlock_all() else win:unlock(targets[1]) end
          if v.flush == "none" then rma.barrier(); rma.barrier() end
          -- The result of get_accumulate: each target's values before it (salt 2, what
          -- the target wrote after checking the accumulate). Several origins race on the
          -- same elements, so only a single origin checks (as lock_x_dt.c).
          if pass == "get_accumulate" and v.origins ~= "multi" then
            for _, t in ipairs(targets) do
              tm.expect_image(rbufs[t], dtpool.image(L.rbytes, L.rbase, L.re, dtpool.RESULT_GAP, val(dtype, 2)),
                              "get_accumulate result from " .. t .. " (" .. L.text .. ")",
                              explain(L.re, L.rbase))
            end
          end
        elseif ctx.targets[me] then
          rma.barrier()
          win:lock(me, "shared")
          local mem = win:local_buffer("u8")
          tm.expect_image(mem, dtpool.image(L.tbytes, L.tbase, L.te, dtpool.TARGET_GAP, val(dtype, 0)),
                          pass .. " (replace) at target " .. me .. " (" .. L.text .. ")",
                          explain(L.te, L.tbase))
          -- New values for the next pass, so that get_accumulate has something to return.
          tm.store(mem, dtpool.image(L.tbytes, L.tbase, L.te, dtpool.TARGET_GAP, val(dtype, 2)))
          win:unlock(me)
          rma.barrier()
        else
          rma.barrier(); rma.barrier()
        end
      end
    end,
    teardown = function(ctx) if ctx.win then ctx.win:free() end end,
  }
end

return dtpool
