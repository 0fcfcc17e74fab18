-- typemap_selftest: checks lib/typemap.lua, the datatype patterns' oracle, against type maps
-- worked out by hand from MPI's definitions (MPI-3.1 §4.1: vector, subarray in C and Fortran
-- order, resized, struct with its alignment padding, sticky bounds, negative strides). Run
-- it alone with `lua5.4 lua_scripts/datatypes/typemap_selftest.lua` (exit 1 on a mismatch);
-- under rmabench it is a one-rank pattern that also compares each rma.type_* type's size,
-- bounds and signature with the model, so a disagreement names which side to look at.
local standalone = (rma == nil)
if standalone then
  local dir = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
  package.path = dir .. "/?.lua;" .. dir .. "/../lib/?.lua;" .. package.path
end
local tm = require("typemap")

-- Each case: a model, the count, the type map expected (byte offsets in type-map order; a
-- dtype for every entry when it is not `dtype`) and the bounds (bytes).
local function cases()
  local c = {}
  local function add(name, m, count, offsets, dtype, b)
    c[#c + 1] = { name = name, m = m, count = count, offsets = offsets, dtype = dtype, b = b }
  end
  -- vector(3, 2, 4, i32): blocks of two at elements 0, 4, 8.
  add("vector", tm.vector(3, 2, 4, "i32"), 1, { 0, 4, 16, 20, 32, 36 }, "i32",
      { size = 24, lb = 0, extent = 40, true_lb = 0, true_extent = 40, sig = "i32*6" })
  -- MPI-3.1 Example 4.6: vector(2, 3, 4, {(double,0),(char,8)}); the old type's extent is 16
  -- (9 bytes padded to the double's alignment).
  local dc = tm.struct({ 1, 1 }, { 0, 8 }, { "f64", "i8" })
  add("struct {double,char}", dc, 1, { 0, 8 }, { "f64", "i8" },
      { size = 9, lb = 0, extent = 16, true_lb = 0, true_extent = 9, sig = "f64*1,i8*1" })
  add("example 4.6", tm.vector(2, 3, 4, dc), 1, { 0, 8, 16, 24, 32, 40, 64, 72, 80, 88, 96, 104 },
      { "f64", "i8", "f64", "i8", "f64", "i8", "f64", "i8", "f64", "i8", "f64", "i8" },
      { size = 54, lb = 0, extent = 112, true_lb = 0, true_extent = 105 })
  -- A 4 × 5 array of i32, the 2 × 3 block at (1, 2). C order: row-major, elements 7, 8, 9,
  -- 12, 13, 14. Fortran order: column-major (first index fastest), elements 9, 10, 13, 14,
  -- 17, 18. Either way lb 0 and extent the whole array, 80 bytes.
  add("subarray c", tm.subarray({ 4, 5 }, { 2, 3 }, { 1, 2 }, "c", "i32"), 1,
      { 28, 32, 36, 48, 52, 56 }, "i32",
      { size = 24, lb = 0, extent = 80, true_lb = 28, true_extent = 32 })
  add("subarray fortran", tm.subarray({ 4, 5 }, { 2, 3 }, { 1, 2 }, "fortran", "i32"), 1,
      { 36, 40, 52, 56, 68, 72 }, "i32",
      { size = 24, lb = 0, extent = 80, true_lb = 36, true_extent = 40 })
  -- Two instances of the C subarray sit one array (80 bytes) apart.
  add("2 x subarray c", tm.subarray({ 4, 5 }, { 2, 3 }, { 1, 2 }, "c", "i32"), 2,
      { 28, 32, 36, 48, 52, 56, 108, 112, 116, 128, 132, 136 }, "i32", nil)
  -- resized(i32, -4, 12): three instances 12 bytes apart, data from 0.
  add("3 x resized", tm.resized("i32", -4, 12), 3, { 0, 12, 24 }, "i32",
      { size = 4, lb = -4, extent = 12, true_lb = 0, true_extent = 4 })
  -- transpose2's column: vector(3, 1, 3, i32) resized to one int, three of them: the
  -- columns of a 3 × 3 matrix one after another (the transpose).
  add("resized column", tm.resized(tm.vector(3, 1, 3, "i32"), 0, 4), 3,
      { 0, 12, 24, 4, 16, 28, 8, 20, 32 }, "i32",
      { size = 12, lb = 0, extent = 4, true_lb = 0, true_extent = 28 })
  -- struct {i32, i16}: 6 bytes padded to 8 (the int's alignment).
  add("struct padding", tm.struct({ 1, 1 }, { 0, 4 }, { "i32", "i16" }), 2,
      { 0, 4, 8, 12 }, { "i32", "i16", "i32", "i16" },
      { size = 6, lb = 0, extent = 8, true_lb = 0, true_extent = 6 })
  -- A member with explicit bounds (resized) fixes the bounds: MPI takes lb/ub from those
  -- markers alone and adds no padding, so the i16 at byte 4 lies past the extent (4).
  add("struct sticky bounds", tm.struct({ 1, 1 }, { 0, 4 }, { tm.resized("i32", 0, 4), "i16" }), 1,
      { 0, 4 }, { "i32", "i16" },
      { size = 6, lb = 0, extent = 4, true_lb = 0, true_extent = 6 })
  -- Negative strides: vector(3, 1, -2, f64) walks downwards from 0.
  add("vector negative stride", tm.vector(3, 1, -2, "f64"), 1, { 0, -16, -32 }, "f64",
      { size = 24, lb = -32, extent = 40, true_lb = -32, true_extent = 40 })
  add("hvector negative stride", tm.hvector(2, 2, -12, "i32"), 1, { 0, 4, -12, -8 }, "i32",
      { size = 16, lb = -12, extent = 20, true_lb = -12, true_extent = 20 })
  -- Two instances of a negative-stride vector: the second starts one extent (40) up.
  add("2 x vector negative stride", tm.vector(3, 1, -2, "f64"), 2,
      { 0, -16, -32, 40, 24, 8 }, "f64", nil)
  -- indexed keeps block order, not address order.
  add("indexed", tm.indexed({ 3, 1 }, { 4, 0 }, "f64"), 1, { 32, 40, 48, 0 }, "f64",
      { size = 32, lb = 0, extent = 56, true_lb = 0, true_extent = 56 })
  add("hindexed_block", tm.hindexed_block(2, { 10, 2 }, "i16"), 1, { 10, 12, 2, 4 }, "i16",
      { size = 8, lb = 2, extent = 12, true_lb = 2, true_extent = 12 })
  -- Nested: contiguous(2, vector(2, 1, 2, i32)), the vector's extent 12.
  add("nested", tm.contiguous(2, tm.vector(2, 1, 2, "i32")), 1, { 0, 8, 12, 20 }, "i32",
      { size = 16, lb = 0, extent = 24, true_lb = 0, true_extent = 24 })
  -- Three deep with a struct of two different dtypes inside.
  local inner = tm.struct({ 2, 1 }, { 0, 8 }, { "i32", "f64" })  -- size 16, extent 16
  add("three deep", tm.hvector(2, 1, 40, tm.contiguous(2, inner)), 1,
      { 0, 4, 8, 16, 20, 24, 40, 44, 48, 56, 60, 64 },
      { "i32", "i32", "f64", "i32", "i32", "f64", "i32", "i32", "f64", "i32", "i32", "f64" },
      { size = 64, lb = 0, extent = 72, true_lb = 0, true_extent = 72,
        sig = "i32*2,f64*1,i32*2,f64*1,i32*2,f64*1,i32*2,f64*1" })
  return c
end

-- Runs every case; `report(ok, message)` records each comparison. Returns the failures.
local function run(report)
  local failures = 0
  local function check(ok, msg)
    if not ok then failures = failures + 1 end
    report(ok, msg)
  end
  for _, c in ipairs(cases()) do
    local es = tm.entries(c.m, c.count)
    check(#es == #c.offsets, c.name .. ": " .. #es .. " entries, want " .. #c.offsets)
    for k, off in ipairs(c.offsets) do
      local want_t = type(c.dtype) == "table" and c.dtype[k] or c.dtype
      local e = es[k] or {}
      check(e[1] == off and e[2] == want_t, string.format("%s: entry %d is {%s, %s}, want {%d, %s}",
            c.name, k - 1, tostring(e[1]), tostring(e[2]), off, want_t))
    end
    if c.b then
      local m = c.m
      local got = { size = m.size, lb = m.lb, extent = tm.extent(m), true_lb = m.true_lb,
                    true_extent = tm.true_extent(m), sig = tm.signature(m, 1) }
      for _, k in ipairs({ "size", "lb", "extent", "true_lb", "true_extent", "sig" }) do
        if c.b[k] ~= nil then
          check(got[k] == c.b[k], string.format("%s: %s is %s, want %s", c.name, k,
                tostring(got[k]), tostring(c.b[k])))
        end
      end
    end
    -- span agrees with the entries it summarizes.
    local lo, hi = tm.span(c.m, c.count)
    local mlo, mhi = math.huge, -math.huge
    for _, e in ipairs(es) do
      mlo = math.min(mlo, e[1]); mhi = math.max(mhi, e[1] + tm.dtype_size(e[2]))
    end
    check(lo == mlo and hi == mhi, string.format("%s: span [%d, %d), entries [%d, %d)",
          c.name, lo, hi, mlo, mhi))
    check(not tm.overlaps(c.m, c.count), c.name .. ": no data byte twice")
  end
  -- Signatures merge runs across blocks and instances.
  check(tm.signature(tm.vector(3, 2, 4, "i32"), 2) == "i32*12", "signature of 2 x vector")
  check(tm.overlaps(tm.hvector(2, 2, 4, "i32"), 1), "hvector(2, 2, 4 bytes) overlaps itself")
  -- Byte images: a packed value lands little-endian at its offset, the rest keeps the fill.
  local img = tm.image(8, 0xA5)
  tm.image_put(img, 2, "i16", 0x0102)
  check(img[1] == 0xA5 and img[2] == 0x02 and img[3] == 0x01 and img[4] == 0xA5, "image_put")
  check(tm.sentinel_value("i8", 0xA5) == -91, "sentinel value of i8")
  -- The model's accumulate arithmetic wraps as the dtype does.
  check(tm.apply("sum", "i8", 100, 100) == -56, "sum wraps in i8")
  check(tm.apply("sum", "u16", 65535, 2) == 1, "sum wraps in u16")
  check(tm.apply("prod", "i32", 65536, 65536) == 0, "prod wraps in i32")
  check(tm.apply("sum", "f32", 16777216.0, 1.0) == 16777216.0, "f32 sum rounds to single precision")
  check(tm.apply("replace", "f64", 1.5, 2.5) == 2.5 and tm.apply("no_op", "f64", 1.5, 2.5) == 1.5,
        "replace and no_op")
  check(tm.apply("band", "u8", 0xF0, 0x3C) == 0x30 and tm.apply("bxor", "i8", -1, 1) == -2, "bitwise ops")
  return failures
end

if standalone then
  local failures = run(function(ok, msg) if not ok then print("FAIL " .. msg) end end)
  print(failures == 0 and "typemap selftest: all passed" or ("typemap selftest: " .. failures .. " failed"))
  os.exit(failures == 0 and 0 or 1)
end

return {
  ranks = 1,
  run = function()
    run(function(ok, msg) rma.expect(ok, "model: " .. msg) end)
    -- The same types built by the implementation must answer what the model says.
    for _, c in ipairs(cases()) do
      local t = tm.realize(c.m)
      tm.expect_type(t, c.m, c.name)
      if type(t) ~= "string" then t:free() end
    end
  end,
}
