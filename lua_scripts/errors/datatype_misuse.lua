-- Misuse of derived datatypes, each expected to fail with MPI's error class and a message
-- that names what was wrong, before anything reaches the target: signatures that differ
-- (TYPE, naming both), an accumulate over a type that mixes basic types (TYPE), a target
-- layout reaching outside the window (RMA_RANGE, naming the bytes), a put whose target
-- layout writes a byte twice (TYPE), an origin layout outside its buffer (BUFFER), a freed
-- type (ARG), a layout field that does not exist (ARG, with the nearest name), and a bad
-- constructor argument (COUNT, ARG). Afterwards the epoch still works: a vector put lands
-- and the gaps around it keep their sentinel (checked on the target).
local SENTINEL = -7

local function expect_message(err, text)
  rma.expect(err.message:find(text, 1, true) ~= nil,
             "message '" .. err.message .. "' names '" .. text .. "'")
end

local function misuse(ctx)
  local win, src = ctx.win, rma.buffer(8, "i32"):iota(1, 1)
  local vec = rma.type_vector(4, 2, 3, "i32")      -- 8 elements over 44 bytes
  expect_message(rma.expect_error("TYPE", function()
    win:put(src, 1, 0, { target_type = rma.type_vector(3, 2, 3, "i32") })
  end), "origin signature i32*8 does not match target signature i32*6")
  local pair = rma.type_struct({1, 1}, {0, 8}, {"i32", "f64"})
  expect_message(rma.expect_error("TYPE", function()
    win:accumulate(rma.buffer(2, "f64"), 1, 0, "sum",
                   { origin_type = pair, target_type = pair })
  end), "mixes basic types")
  expect_message(rma.expect_error("RMA_RANGE", function()
    win:put(src, 1, 60, { target_type = vec })       -- bytes 240..284 of a 256-byte window
  end), "touches bytes 240..284")
  expect_message(rma.expect_error("TYPE", function()
    win:put(src, 1, 0, { target_type = rma.type_resized(rma.type_vector(2, 1, 3, "i32"), 0, 4),
                         target_count = 4 })
  end), "overlapping entries")
  expect_message(rma.expect_error("BUFFER", function()
    win:put(src, 1, 0, { origin_type = vec })        -- 44 bytes of a 32-byte buffer
  end), "0..44 of a 32-byte buffer")
  local gone = rma.type_contiguous(8, "i32")
  gone:free()
  expect_message(rma.expect_error("ARG", function()
    win:put(src, 1, 0, { target_type = gone })
  end), "freed")
  expect_message(rma.expect_error("ARG", function()
    win:put(src, 1, 0, { traget_type = vec })
  end), "did you mean 'target_type'")
  rma.expect_error("COUNT", function() rma.type_vector(-1, 1, 1, "i32") end)
  rma.expect_error("ARG", function() rma.type_subarray({4}, {3}, {2}, "c", "i32") end)
  rma.expect_error("ARG", function() rma.type_subarray({4}, {1}, {0}, "row", "i32") end)
  win:put(src, 1, 1, { target_type = vec })           -- the epoch still works
end

return {
  ranks = 2,
  impl_defined = "every misuse here is an erroneous program, whose outcome MPI leaves "
    .. "undefined (a library need not detect a signature mismatch or overlapping target "
    .. "entries); the reference reports each with its class",
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 * 4, disp_unit = 4 }
    ctx.win:local_buffer("i32"):fill(SENTINEL)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1)
      misuse(ctx)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank ~= 1 then return end
    local want = rma.buffer(64, "i32"):fill(SENTINEL)
    for k = 0, 7 do want:set(1 + (k // 2) * 3 + k % 2, k + 1) end
    rma.expect_eq(ctx.win:local_buffer("i32"), want, "the vector put after the misuses")
  end,
  teardown = function(ctx) ctx.win:free() end,
}
