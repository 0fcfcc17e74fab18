-- typemap: an independent Lua model of MPI derived datatypes, the oracle the datatype
-- patterns check against (so no expected value comes from the C++ under test). Gives
-- constructors with the arguments and order of the rma.type_* ones, each returning a plain
-- description (a "model"); the bounds MPI defines (size, lb, extent, true_lb, true_extent);
-- the type map of count × type as {byte_offset, dtype} entries in type-map order; the
-- signature string; `realize`, which builds the real rma type from the same description;
-- and byte-image helpers that write and check memory exactly (data where the type map says,
-- a sentinel in every gap). Plain Lua 5.4: `lua5.4 datatypes/typemap_selftest.lua` runs the
-- model alone; only the functions marked "hooks only" touch `rma`.
local typemap = {}

-- Basic dtypes: size in bytes and string.pack format (little-endian, as the hosts we run on).
local BASIC = {
  i8 = { size = 1, fmt = "<i1" }, u8 = { size = 1, fmt = "<I1" },
  i16 = { size = 2, fmt = "<i2" }, u16 = { size = 2, fmt = "<I2" },
  i32 = { size = 4, fmt = "<i4" }, u32 = { size = 4, fmt = "<I4" },
  i64 = { size = 8, fmt = "<i8" }, u64 = { size = 8, fmt = "<I8" },
  f32 = { size = 4, fmt = "<f" }, f64 = { size = 8, fmt = "<d" },
}
-- Pair dtypes (MPI's MINLOC/MAXLOC types) as C lays them out: value then int index, the
-- struct padded to its alignment (so size < extent for short_int, long_int, double_int).
local PAIR = {
  ["2int"] = { value = "i32", index_at = 4, size = 8, extent = 8, align = 4 },
  short_int = { value = "i16", index_at = 4, size = 6, extent = 8, align = 4 },
  long_int = { value = "i64", index_at = 8, size = 12, extent = 16, align = 8 },
  float_int = { value = "f32", index_at = 4, size = 8, extent = 8, align = 4 },
  double_int = { value = "f64", index_at = 8, size = 12, extent = 16, align = 8 },
}
typemap.BASIC, typemap.PAIR = BASIC, PAIR

function typemap.dtype_size(dtype)
  local b = BASIC[dtype] or PAIR[dtype]
  if not b then error("typemap: unknown dtype '" .. tostring(dtype) .. "'", 2) end
  return b.size
end

-- ---------------------------------------------------------------------------------------
-- The model. A model is a table:
--   recipe   {ctor, args}: how to build it (realize replays it through rma.type_*)
--   blocks   one instance's contiguous runs in type-map order: {off, n, dtype}
--   size     bytes of data; nelem: basic elements
--   lb, ub   MPI's bounds (extent = ub - lb); true_lb, true_ub: the data's own bounds
--   explicit bounds set by resized (or subarray) somewhere inside: MPI's "sticky" lb/ub
--            markers, which also turn off the struct alignment padding
--   align    the largest alignment of a basic type inside (struct padding)
-- ---------------------------------------------------------------------------------------

local function is_model(x) return type(x) == "table" and x.blocks ~= nil end

-- A basic dtype as a model (old = "i32" in a constructor means this).
function typemap.basic(dtype)
  local p = PAIR[dtype]
  if p then
    return { recipe = { ctor = "basic", args = { dtype } }, blocks = { { 0, 1, dtype } },
             size = p.size, nelem = 1, lb = 0, ub = p.extent, true_lb = 0,
             true_ub = p.index_at + 4, explicit = false, align = p.align }
  end
  local s = typemap.dtype_size(dtype)
  return { recipe = { ctor = "basic", args = { dtype } }, blocks = { { 0, 1, dtype } },
           size = s, nelem = 1, lb = 0, ub = s, true_lb = 0, true_ub = s,
           explicit = false, align = s }
end

local function as_model(old)
  if is_model(old) then return old end
  return typemap.basic(old)
end

function typemap.extent(m) return m.ub - m.lb end
function typemap.true_extent(m) return m.true_ub - m.true_lb end

-- Appends run {off, n, dtype} to `out`, merging it into the previous run when it continues
-- it (same dtype, next byte): runs are only a compact spelling of the entries.
local function push_run(out, off, n, dtype)
  local last = out[#out]
  if last and last[3] == dtype and not PAIR[dtype]
     and last[1] + last[2] * BASIC[dtype].size == off then
    last[2] = last[2] + n
  else
    out[#out + 1] = { off, n, dtype }
  end
end

-- The general rule every constructor reduces to: copies of child types at byte
-- displacements, in type-map order. `places` is a list of {disp, child model}.
local function compose(ctor, args, places, is_struct)
  local m = { recipe = { ctor = ctor, args = args }, blocks = {}, size = 0, nelem = 0,
              explicit = false, align = 1 }
  local lb, ub, elb, eub, tlb, tub
  for _, p in ipairs(places) do
    local d, c = p[1], p[2]
    for _, b in ipairs(c.blocks) do push_run(m.blocks, d + b[1], b[2], b[3]) end
    m.size = m.size + c.size
    m.nelem = m.nelem + c.nelem
    if c.align > m.align then m.align = c.align end
    -- Bounds: an entry with no data (a zero-size child) places nothing, as a zero
    -- blocklength does; MPI takes lb/ub over the entries present.
    if c.size > 0 or c.explicit then
      local clb, cub = d + c.lb, d + c.ub
      if c.explicit then
        m.explicit = true
        elb = elb and math.min(elb, clb) or clb
        eub = eub and math.max(eub, cub) or cub
      end
      lb = lb and math.min(lb, clb) or clb
      ub = ub and math.max(ub, cub) or cub
    end
    if c.size > 0 then
      local a, b = d + c.true_lb, d + c.true_ub
      tlb = tlb and math.min(tlb, a) or a
      tub = tub and math.max(tub, b) or b
    end
  end
  -- With markers inside, MPI takes lb/ub from the markers alone (MPI-3.1 §4.1.6 rules for
  -- sticky bounds); otherwise from every entry.
  if m.explicit then lb, ub = elb, eub end
  m.lb, m.ub = lb or 0, ub or 0
  m.true_lb, m.true_ub = tlb or 0, tub or 0
  -- Struct: the extent is rounded up to the largest alignment inside (MPI's epsilon; MPICH
  -- and the reference apply it to struct only, and not when bounds were set explicitly).
  if is_struct and not m.explicit then
    local ext, a = m.ub - m.lb, m.align
    if ext % a ~= 0 then m.ub = m.ub + (a - ext % a) end
  end
  return m
end

local function check_list(name, l)
  if type(l) ~= "table" then error("typemap: " .. name .. " must be a list", 3) end
end

function typemap.contiguous(count, old)
  local c = as_model(old)
  local places, e = {}, typemap.extent(c)
  for i = 0, count - 1 do places[#places + 1] = { i * e, c } end
  return compose("contiguous", { count, old }, places)
end

function typemap.hvector(count, blocklength, stride_bytes, old)
  local c = as_model(old)
  local places, e = {}, typemap.extent(c)
  for i = 0, count - 1 do
    for j = 0, blocklength - 1 do places[#places + 1] = { i * stride_bytes + j * e, c } end
  end
  local m = compose("hvector", { count, blocklength, stride_bytes, old }, places)
  return m
end

function typemap.vector(count, blocklength, stride, old)
  local c = as_model(old)
  local m = typemap.hvector(count, blocklength, stride * typemap.extent(c), c)
  m.recipe = { ctor = "vector", args = { count, blocklength, stride, old } }
  return m
end

function typemap.hindexed(blocklengths, byte_displacements, old)
  check_list("blocklengths", blocklengths); check_list("displacements", byte_displacements)
  local c = as_model(old)
  local places, e = {}, typemap.extent(c)
  for k = 1, #blocklengths do
    for j = 0, blocklengths[k] - 1 do places[#places + 1] = { byte_displacements[k] + j * e, c } end
  end
  return compose("hindexed", { blocklengths, byte_displacements, old }, places)
end

function typemap.indexed(blocklengths, displacements, old)
  local c = as_model(old)
  local bytes, e = {}, typemap.extent(c)
  for k = 1, #displacements do bytes[k] = displacements[k] * e end
  local m = typemap.hindexed(blocklengths, bytes, c)
  m.recipe = { ctor = "indexed", args = { blocklengths, displacements, old } }
  return m
end

function typemap.hindexed_block(blocklength, byte_displacements, old)
  local bls = {}
  for k = 1, #byte_displacements do bls[k] = blocklength end
  local m = typemap.hindexed(bls, byte_displacements, old)
  m.recipe = { ctor = "hindexed_block", args = { blocklength, byte_displacements, old } }
  return m
end

function typemap.indexed_block(blocklength, displacements, old)
  local bls = {}
  for k = 1, #displacements do bls[k] = blocklength end
  local m = typemap.indexed(bls, displacements, old)
  m.recipe = { ctor = "indexed_block", args = { blocklength, displacements, old } }
  return m
end

function typemap.struct(blocklengths, byte_displacements, types)
  check_list("types", types)
  local places = {}
  for k = 1, #blocklengths do
    local c = as_model(types[k])
    local e = typemap.extent(c)
    for j = 0, blocklengths[k] - 1 do places[#places + 1] = { byte_displacements[k] + j * e, c } end
  end
  return compose("struct", { blocklengths, byte_displacements, types }, places, true)
end

function typemap.resized(old, lb, extent)
  local c = as_model(old)
  local m = compose("resized", { old, lb, extent }, { { 0, c } })
  m.lb, m.ub, m.explicit = lb, lb + extent, true
  return m
end

-- Subarray: the elements of the sub-block in storage order (C: last index fastest; Fortran:
-- first index fastest), each at its linear position in the full array; the type is then
-- resized to the full array, lb 0 (MPI-3.1 §4.1.3).
function typemap.subarray(sizes, subsizes, starts, order, old)
  local c = as_model(old)
  local n, e = #sizes, typemap.extent(c)
  if order ~= "c" and order ~= "fortran" then error("typemap: order must be c or fortran", 2) end
  -- Index order from slowest to fastest dimension, and each dimension's element stride.
  local dims, stride = {}, {}
  if order == "c" then
    for d = 1, n do dims[#dims + 1] = d end
    local s = 1
    for d = n, 1, -1 do stride[d] = s; s = s * sizes[d] end
  else
    for d = n, 1, -1 do dims[#dims + 1] = d end
    local s = 1
    for d = 1, n do stride[d] = s; s = s * sizes[d] end
  end
  local places, total = {}, 1
  for d = 1, n do total = total * sizes[d] end
  local function walk(level, base)
    if level > n then places[#places + 1] = { base * e, c }; return end
    local d = dims[level]
    for i = 0, subsizes[d] - 1 do walk(level + 1, base + (starts[d] + i) * stride[d]) end
  end
  local empty = false
  for d = 1, n do if subsizes[d] == 0 then empty = true end end
  if not empty then walk(1, 0) end
  local m = compose("subarray", { sizes, subsizes, starts, order, old }, places)
  m.lb, m.ub, m.explicit = 0, total * e, true
  return m
end

-- ---------------------------------------------------------------------------------------
-- count × type
-- ---------------------------------------------------------------------------------------

-- The runs of `count` instances (instance i displaced by i × extent), in type-map order.
function typemap.runs(m, count)
  count = count or 1
  local out, e = {}, typemap.extent(m)
  for i = 0, count - 1 do
    for _, b in ipairs(m.blocks) do push_run(out, i * e + b[1], b[2], b[3]) end
  end
  return out
end

-- The type map of count × type: a list of {byte_offset, dtype}, one per basic element, in
-- type-map order (the order data travels: origin element k lands on target element k).
function typemap.entries(m, count)
  local out = {}
  for _, r in ipairs(typemap.runs(m, count)) do
    local s = typemap.dtype_size(r[3])
    if PAIR[r[3]] then s = PAIR[r[3]].extent end
    for j = 0, r[2] - 1 do out[#out + 1] = { r[1] + j * s, r[3] } end
  end
  return out
end

-- The byte range [lo, hi) the data of count × type occupies (relative to the buffer start).
function typemap.span(m, count)
  count = count or 1
  if m.size == 0 or count == 0 then return 0, 0 end
  local shift = (count - 1) * typemap.extent(m)
  return m.true_lb + math.min(0, shift), m.true_ub + math.max(0, shift)
end

-- "i32*12,f64*2": the basic types of count × type, run-length encoded (the form
-- t:signature() prints).
function typemap.signature(m, count)
  local parts, cur, n = {}, nil, 0
  for _ = 1, count or 1 do
    for _, b in ipairs(m.blocks) do
      if b[3] == cur then n = n + b[2]
      else
        if cur then parts[#parts + 1] = cur .. "*" .. n end
        cur, n = b[3], b[2]
      end
    end
  end
  if cur then parts[#parts + 1] = cur .. "*" .. n end
  return table.concat(parts, ",")
end

-- Whether two data bytes of count × type coincide (MPI forbids that where data is received).
-- A run spans its elements up to its last one's index: a pair's tail padding holds no data.
-- Pair runs are never merged here, so this is MPI's rule pair by pair; the implementation
-- merges adjacent pairs into one run and counts the padding between them (it may refuse more).
function typemap.overlaps(m, count)
  local rs = typemap.runs(m, count)
  local iv = {}
  for _, r in ipairs(rs) do
    local p = PAIR[r[3]]
    local s = p and p.extent or BASIC[r[3]].size
    local tail = p and p.extent - (p.index_at + 4) or 0
    iv[#iv + 1] = { r[1], r[1] + r[2] * s - tail }
  end
  table.sort(iv, function(a, b) return a[1] < b[1] end)
  for i = 2, #iv do if iv[i][1] < iv[i - 1][2] then return true end end
  return false
end

-- A readable spelling of the recipe, as its constructor calls.
function typemap.describe(m)
  if not is_model(m) then return string.format("%q", m) end
  local r = m.recipe
  if r.ctor == "basic" then return r.args[1] end
  local parts = {}
  for _, a in ipairs(r.args) do
    if is_model(a) then parts[#parts + 1] = typemap.describe(a)
    elseif type(a) == "table" then
      local s = {}
      for i, x in ipairs(a) do s[i] = is_model(x) and typemap.describe(x) or tostring(x) end
      parts[#parts + 1] = "{" .. table.concat(s, ",") .. "}"
    else parts[#parts + 1] = tostring(a) end
  end
  return r.ctor .. "(" .. table.concat(parts, ", ") .. ")"
end

-- ---------------------------------------------------------------------------------------
-- Values and byte images
-- ---------------------------------------------------------------------------------------

-- The k-th value of a pattern (k from 0), `salt` telling patterns apart: small positive
-- numbers, exact in every dtype, so that no value's bytes are a sentinel byte repeated (the
-- sentinels are >= 0xA5, negative as signed bytes), and sums of a few stay exact.
function typemap.value(dtype, k, salt)
  salt = salt or 0
  local base = PAIR[dtype] and PAIR[dtype].value or dtype
  local s = BASIC[base].size
  local m = (s == 1) and 90 or (s == 2 and 20000 or 1000000)
  local v = (k * 7 + salt * 13) % m + 1
  if base == "f32" or base == "f64" then return v + 0.5 end
  return v
end

function typemap.pack(dtype, v, index)
  local p = PAIR[dtype]
  if p then
    local s = string.pack(BASIC[p.value].fmt, v)
    s = s .. string.rep("\0", p.index_at - #s) .. string.pack("<i4", index or 0)
    return s .. string.rep("\0", p.extent - #s)
  end
  return string.pack(BASIC[dtype].fmt, v)
end

function typemap.unpack(dtype, bytes)
  return (string.unpack(BASIC[dtype].fmt, bytes))
end

-- The value a dtype element reads when all its bytes are `byte` (a sentinel's value).
function typemap.sentinel_value(dtype, byte)
  return typemap.unpack(dtype, string.rep(string.char(byte), BASIC[dtype].size))
end

-- Wraps a Lua number to what a dtype element holds (integers modulo their width, f32
-- rounded to single precision): the model's own arithmetic, independent of rma.oracle.
function typemap.wrap(dtype, v)
  if dtype == "f64" then return v + 0.0 end
  if dtype == "f32" then return (string.unpack("<f", string.pack("<f", v))) end
  local bits = BASIC[dtype].size * 8
  if bits == 64 then return math.tointeger(v) end
  local u = math.tointeger(v) & ((1 << bits) - 1)
  if dtype:sub(1, 1) == "i" and u >= (1 << (bits - 1)) then u = u - (1 << bits) end
  return u
end

-- target = op(target, origin) for one element, as MPI's accumulate ops define it (the
-- arithmetic, min/max and bitwise ones; replace and no_op).
function typemap.apply(op, dtype, t, o)
  if op == "replace" then return o
  elseif op == "no_op" then return t
  elseif op == "sum" then return typemap.wrap(dtype, t + o)
  elseif op == "prod" then return typemap.wrap(dtype, t * o)
  elseif op == "min" then return math.min(t, o)
  elseif op == "max" then return math.max(t, o)
  elseif op == "band" then return typemap.wrap(dtype, t & o)
  elseif op == "bor" then return typemap.wrap(dtype, t | o)
  elseif op == "bxor" then return typemap.wrap(dtype, t ~ o)
  end
  error("typemap: op '" .. tostring(op) .. "' not modelled", 2)
end

-- An expected image: a Lua table of `nbytes` byte values, every byte `fill`; `put` writes a
-- value's bytes at an offset. Pure Lua: the checks build what memory must hold here.
function typemap.image(nbytes, fill)
  local img = { n = nbytes }
  for i = 0, nbytes - 1 do img[i] = fill end
  return img
end

function typemap.image_put(img, off, dtype, v, index)
  local s = typemap.pack(dtype, v, index)
  for j = 1, #s do
    local at = off + j - 1
    if at < 0 or at >= img.n then error("typemap: image write outside [0, " .. img.n .. ")", 2) end
    img[at] = s:byte(j)
  end
end

-- Hooks only: a u8 buffer holding the image.
function typemap.to_buffer(img)
  local b = rma.buffer(img.n, "u8")
  for i = 0, img.n - 1 do b:set(i, img[i]) end
  return b
end

-- Hooks only: writes an image into a u8 buffer (a window's local_buffer("u8") too).
function typemap.store(buf, img, first)
  first = first or 0
  for i = 0, img.n - 1 do buf:set(first + i, img[i]) end
end

-- Hooks only: checks that u8 buffer `actual` holds exactly image `img` (from byte `first`).
-- On a mismatch, reports the first few differing bytes, each with what it is: which element
-- of the type map (`owners`: a table byte → description, built only then by `explain`) or a
-- gap. Returns true when they match.
function typemap.expect_image(actual, img, label, explain, first)
  first = first or 0
  local bad = {}
  local want = typemap.to_buffer(img)
  if actual:sub(first, img.n):equals(want) then return true end
  local owners = explain and explain() or {}
  for i = 0, img.n - 1 do
    local got = actual:get(first + i)
    if got ~= img[i] then
      bad[#bad + 1] = string.format("byte %d (%s): got 0x%02x, want 0x%02x", i,
                                    owners[i] or "gap", got, img[i])
      if #bad == 6 then break end
    end
  end
  rma.expect(false, label .. ": " .. table.concat(bad, "; "))
  return false
end

-- For expect_image's `explain`: byte → "element k (dtype)" for entries placed at `base`.
function typemap.owners(entries, base)
  local o = {}
  for k, e in ipairs(entries) do
    local s = PAIR[e[2]] and (PAIR[e[2]].index_at + 4) or BASIC[e[2]].size
    for j = 0, s - 1 do o[base + e[1] + j] = "element " .. (k - 1) .. " " .. e[2] end
  end
  return o
end

-- Hooks only: the real type for a model, built through rma.type_* with the same arguments
-- (children first). Basic models realize to their dtype name, as `old` accepts.
function typemap.realize(m)
  if not is_model(m) then return m end
  local r = m.recipe
  if r.ctor == "basic" then return r.args[1] end
  local args = {}
  for i, a in ipairs(r.args) do
    if is_model(a) then args[i] = typemap.realize(a)
    elseif type(a) == "table" then
      local l = {}
      for j, x in ipairs(a) do l[j] = is_model(x) and typemap.realize(x) or x end
      args[i] = l
    else args[i] = a end
  end
  return rma["type_" .. r.ctor](table.unpack(args, 1, #r.args))
end

-- Hooks only: compares what the real type answers with the model (bytes; MPI's names).
function typemap.expect_type(t, m, label)
  if type(t) == "string" then return true end
  local ok = true
  local function eq(got, want, what)
    ok = rma.expect_eq(got, want, label .. ": " .. what .. " of " .. typemap.describe(m)) and ok
  end
  eq(t:size(), m.size, "size")
  eq(t:lb(), m.lb, "lb")
  eq(t:extent(), typemap.extent(m), "extent")
  eq(t:true_lb(), m.true_lb, "true_lb")
  eq(t:true_extent(), typemap.true_extent(m), "true_extent")
  eq(t:signature(), typemap.signature(m, 1), "signature")
  return ok
end

return typemap
