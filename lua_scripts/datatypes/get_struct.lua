-- get_struct: a port of MPICH's test/mpi/rma/get_struct.c (a get of a struct of structs;
-- the original failure was a crash in MPI_Get). Rank 0 attaches one list element to a
-- dynamic window: a remote pointer {i64 disp; i32 rank; 4 bytes padding; 8-byte local
-- pointer} (24 bytes), then a 64-byte key and a 256-byte value (344 bytes in all). Rank 1,
-- under lock_all, reads it three ways as MPICH's -byteonly, -twostruct and -onelevel
-- (`case`, default all): 344 bytes; a struct {pointer, key, value} whose pointer member is
-- itself the struct {i64 at 0, i32 at 8} (extent 16, its padding and local pointer not part
-- of the type map); the same with the pointer as 24 bytes. After each flush the local copy
-- must hold disp 0 and rank -1 (MPICH's check), the key and value strings, and, for the
-- struct reads, its own sentinel in the 12 bytes the type map skips.
local tm = require("typemap")  -- the models of the structs, the byte images

local ELEM, KEY_AT, VALUE_AT = 344, 24, 88

-- The models of the list element's types (MPICH's dptrType and listelmType).
local function models(one_level)
  local dptr = tm.struct({ 1, 1 }, { 0, 8 }, { "i64", "i32" })
  if one_level then
    return dptr, tm.struct({ 24, 64, 256 }, { 0, KEY_AT, VALUE_AT }, { "u8", "i8", "i8" })
  end
  return dptr, tm.struct({ 1, 64, 256 }, { 0, KEY_AT, VALUE_AT }, { dptr, "i8", "i8" })
end

-- The head element's bytes: disp 0 (MPI_BOTTOM), rank -1, a local pointer of 0, the strings
-- zero-padded; `gap` fills the bytes between rank and the local pointer.
local function head_image()
  local img = tm.image(ELEM, 0)
  tm.image_put(img, 0, "i64", 0)
  tm.image_put(img, 8, "i32", -1)
  for i = 1, #"key1" do img[KEY_AT + i - 1] = ("key1"):byte(i) end
  for i = 1, #"value1" do img[VALUE_AT + i - 1] = ("value1"):byte(i) end
  return img
end

-- What rank 1's copy starts as (MPICH: rank 100, disp 0xefefefef; here the rest 0xC3).
local function copy_image()
  local img = tm.image(ELEM, 0xC3)
  tm.image_put(img, 0, "i64", 0xefefefef)
  tm.image_put(img, 8, "i32", 100)
  return img
end

return {
  ranks = 2,
  options = { case = {"byte, twostruct, onelevel or all", "all"} },
  setup = function(ctx)
    if rma.size < 2 then rma.skip("needs 2 ranks") end
    ctx.win = rma.window{ flavor = "dynamic", path = "auto" }
    local addr = rma.buffer(1, "i64")
    if rma.rank == 0 then
      ctx.head = tm.to_buffer(head_image())
      addr:set(0, ctx.win:attach(ctx.head))
      for r = 1, rma.size - 1 do rma.send(r, addr, 5) end
    else
      rma.recv(0, addr, 5)
    end
    ctx.disp = addr:get(0)
  end,
  run = function(ctx)
    if rma.rank ~= 1 then return end
    local which = rma.opt.case
    ctx.win:lock_all()
    for _, c in ipairs({ "byte", "twostruct", "onelevel" }) do
      if which == "all" or which == c then
        local copy = tm.to_buffer(copy_image())
        local want = head_image()
        if c == "byte" then
          ctx.win:get(copy, 0, ctx.disp)   -- 344 u8, contiguous at the target too
        else
          local dptr_m, elem_m = models(c == "onelevel")
          local dptr = rma.type_struct({ 1, 1 }, { 0, 8 }, { "i64", "i32" })
          local elem
          if c == "onelevel" then
            elem = rma.type_struct({ 24, 64, 256 }, { 0, KEY_AT, VALUE_AT }, { "u8", "i8", "i8" })
          else
            elem = rma.type_struct({ 1, 64, 256 }, { 0, KEY_AT, VALUE_AT }, { dptr, "i8", "i8" })
          end
          tm.expect_type(dptr, dptr_m, "pointer struct")
          tm.expect_type(elem, elem_m, c .. " element struct")
          ctx.win:get(copy, 0, ctx.disp, { origin_type = elem, target_type = elem })
          dptr:free(); elem:free()
          if c == "twostruct" then
            -- Bytes 12..23 (padding and the local pointer) are not in the type map.
            for i = 12, 23 do want[i] = copy_image()[i] end
          end
        end
        ctx.win:flush(0)
        rma.expect_eq(copy:get(8) | (copy:get(9) << 8) | (copy:get(10) << 16) | (copy:get(11) << 24),
                      0xffffffff, c .. ": next.rank is -1")
        tm.expect_image(copy, want, c .. ": the copy of the head element")
      end
    end
    ctx.win:unlock_all()
  end,
  teardown = function(ctx)
    if ctx.head then ctx.win:detach(ctx.head) end
    ctx.win:free()
  end,
}
