-- layout_errors: the layout rules lua_scripts/API.md pins for derived-datatype calls (no
-- MPICH original). Origin and target signatures must match, a result layout's too (TYPE); an
-- accumulate's types must be built from one basic type (TYPE); no byte may be written twice
-- where data lands — a put's target, a get's local buffer, a get_accumulate's result (TYPE);
-- a target layout must stay inside the target's window, below its start too (a negative
-- stride at disp 0), else RMA_RANGE; an origin layout inside its buffer (BUFFER); a layout
-- whose count takes its data or span to 2^48 bytes or more is COUNT. A freed
-- type's handle is unusable (ARG); constructors refuse a negative count (COUNT) and a
-- subarray outside its array (ARG). A failed call changes nothing: afterwards the window
-- holds its sentinel except where the one valid call of the epoch (the same negative stride,
-- moved up by its displacement) wrote.
local SENTINEL = -9

return {
  ranks = 2,
  impl_defined = "erroneous calls: MPI does not require an implementation to detect mismatched " ..
                 "signatures or out-of-window layouts (MPI-3.1 §11.2.4, §11.7.3)",
  setup = function(ctx)
    ctx.target = rma.size - 1
    ctx.win = rma.window{ size = 64, disp_unit = 4 }
    ctx.win:local_buffer("i32"):fill(SENTINEL)
  end,
  run = function(ctx)
    if rma.rank ~= 0 then return end
    local win, t = ctx.win, ctx.target
    local four = rma.buffer(4, "i32"):iota(1, 1)
    local res = rma.buffer(4, "i32"):fill(-5)
    local c4f = rma.type_contiguous(4, "f32")
    local c3 = rma.type_contiguous(3, "i32")
    local c4 = rma.type_contiguous(4, "i32")
    local c8 = rma.type_contiguous(8, "i32")
    local v2 = rma.type_vector(2, 1, 2, "i32")
    local wide = rma.type_vector(4, 1, 8, "i32")   -- 100 bytes of span: past the 64-byte window
    local down = rma.type_vector(2, 1, -4, "i32")  -- elements at 0 and -16 bytes
    win:lock(t, "exclusive")
    rma.expect_error("TYPE", function() win:put(four, t, 0, { target_type = c4f }) end)
    rma.expect_error("TYPE", function() win:put(four, t, 0, { origin_type = v2, target_type = c3 }) end)
    rma.expect_error("TYPE", function() win:accumulate(four, t, 0, "sum", { target_type = c3 }) end)
    rma.expect_error("TYPE", function()
      win:get_accumulate(four, res, t, 0, "sum", { result_type = c3, target_type = c4 })
    end)
    rma.expect_error("RMA_RANGE", function()
      win:put(four, t, 0, { origin_type = c4, target_type = wide, target_count = 1 })
    end)
    rma.expect_error("RMA_RANGE", function() win:get(rma.buffer(2, "i32"), t, 0, { target_type = down }) end)
    rma.expect_error("RMA_RANGE", function() win:put(four, t, 15, { target_type = c4 }) end)
    rma.expect_error("BUFFER", function() win:put(four, t, 0, { origin_type = c8, target_type = c8 }) end)
    -- 2^60 instances of 16 bytes: a size that wraps 64 bits, so no range can be checked;
    -- on either side.
    rma.expect_error("COUNT", function()
      win:put(four, t, 0, { origin_type = c4, origin_count = 1 << 60, target_type = c4,
                            target_count = 1 << 60 })
    end)
    rma.expect_error("COUNT", function() win:put(four, t, 0, { target_type = c4, target_count = 1 << 60 }) end)
    -- One basic type for accumulate: a struct of an i32 and an f32 against the same struct.
    local mixed = rma.type_struct({ 1, 1 }, { 0, 4 }, { "i32", "f32" })
    rma.expect_error("TYPE", function()
      win:accumulate(four, t, 0, "replace", { origin_type = mixed, origin_count = 2, target_type = mixed,
                                              target_count = 2 })
    end)
    -- Bytes written twice where data lands: hvector(2, 2, 4 bytes) puts elements 1 and 2 on
    -- the same bytes.
    local twice = rma.type_hvector(2, 2, 4, "i32")
    rma.expect_error("TYPE", function() win:put(four, t, 0, { target_type = twice }) end)
    rma.expect_error("TYPE", function() win:get(rma.buffer(8, "i32"), t, 0, { origin_type = twice }) end)
    rma.expect_error("TYPE", function()
      win:get_accumulate(four, rma.buffer(8, "i32"), t, 0, "sum", { result_type = twice })
    end)
    -- A freed handle, bad constructor arguments.
    local gone = rma.type_contiguous(4, "i32")
    gone:free()
    rma.expect_error("ARG", function() win:put(four, t, 0, { target_type = gone }) end)
    rma.expect_error("COUNT", function() rma.type_contiguous(-1, "i32") end)
    rma.expect_error("ARG", function() rma.type_subarray({ 4, 4 }, { 2, 2 }, { 3, 0 }, "c", "i32") end)
    mixed:free(); twice:free()
    -- The valid one: the negative stride from element 4 writes elements 4 and 0.
    win:put(rma.buffer(2, "i32"):set(0, 77):set(1, 88), t, 4, { target_type = down })
    win:unlock(t)
    rma.expect(res:get(0) == -5, "the failed get_accumulate left its result buffer alone")
    for _, x in ipairs({ c4f, c3, c4, c8, v2, wide, down }) do x:free() end
  end,
  check = function(ctx)
    if rma.rank ~= ctx.target then return end
    local mem = ctx.win:local_buffer("i32")
    for i = 0, 15 do
      local want = (i == 4 and 77) or (i == 0 and 88) or SENTINEL
      rma.expect_eq(mem:get(i), want, "window element " .. i)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
