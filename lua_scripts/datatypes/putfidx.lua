-- putfidx: a port of MPICH's test/mpi/rma/putfidx.c ("put with an indexed origin type"; one
-- implementation turned large blocks of it into a wrong contiguous move). Rank 0's origin is
-- an indexed type of two blocks of `blksize` ints at elements 0 and blksize + 1 (the element
-- between them, -1, is skipped); it puts them as 2·blksize contiguous ints into the last
-- rank's window in a fence epoch. The window (-1 first, with a guard element after the
-- 2·blksize) must hold i at element i and -1 in the guard.
local tm = require("typemap")  -- the model of the indexed type

return {
  ranks = 2,
  options = { blksize = {"ints per block (MPICH: 2048)", 2048} },
  setup = function(ctx)
    local b = rma.opt.blksize
    ctx.dest = rma.size - 1
    ctx.win = rma.window{ size = (2 * b + 1) * 4, disp_unit = 4, flavor = "create" }
    ctx.win:local_buffer("i32"):fill(-1)
    if rma.rank == 0 then
      ctx.src = rma.buffer(2 * b + 1, "i32")
      for i = 0, b - 1 do ctx.src:set(i, i); ctx.src:set(b + 1 + i, b + i) end
      ctx.src:set(b, -1)
    end
  end,
  run = function(ctx)
    local b = rma.opt.blksize
    ctx.win:fence()
    if rma.rank == 0 then
      local t = rma.type_indexed({ b, b }, { 0, b + 1 }, "i32")
      tm.expect_type(t, tm.indexed({ b, b }, { 0, b + 1 }, "i32"), "indexed origin")
      local flat = rma.type_contiguous(2 * b, "i32")
      ctx.win:put(ctx.src, ctx.dest, 0, { origin_type = t, target_type = flat })
      t:free(); flat:free()
    end
    ctx.win:fence()
  end,
  check = function(ctx)
    if rma.rank ~= ctx.dest then return end
    local b, mem, bad, first = rma.opt.blksize, ctx.win:local_buffer("i32"), 0, nil
    for i = 0, 2 * b do
      local want = i < 2 * b and i or -1
      if mem:get(i) ~= want then
        bad = bad + 1
        first = first or string.format("element %d: got %d, want %d", i, mem:get(i), want)
      end
    end
    rma.expect(bad == 0, bad .. " wrong elements, first " .. tostring(first))
  end,
  teardown = function(ctx) ctx.win:free() end,
}
