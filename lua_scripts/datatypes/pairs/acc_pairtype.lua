-- acc_pairtype: a port of MPICH's test/mpi/rma/acc_pairtype.c (accumulate of a derived type
-- over a pair dtype). Rank 0 accumulates with maxloc, under a shared lock on rank 1, a vector
-- of 10 blocks of 3 pairs at stride 5 from its buffer of 50 pairs, all (1, 1), into the
-- same vector over rank 1's 50 pairs, all (0, 0): the pairs the vector covers (i mod 5 < 3)
-- must become (1, 1), the two after each block stay (0, 0). MPICH uses long double_int,
-- which has no dtype here; `dtype` picks the pair (double_int by default). Skipped while
-- the implementation has no pair dtypes.
local tm = require("typemap")  -- pair sizes and the model of the vector

return {
  ranks = 2,
  options = {
    dtype = {"pair dtype: 2int, short_int, long_int, float_int or double_int", "double_int"},
    flavor = {"create (acc_pairtype) or allocate (acc_pairtype_shm, USE_WIN_ALLOCATE)", "create"},
  },
  setup = function(ctx)
    local dt = rma.opt.dtype
    if not pcall(rma.buffer, 1, dt) then rma.skip("no pair dtype " .. dt .. " in this implementation yet") end
    local ext = tm.PAIR[dt].extent
    ctx.win = rma.window{ size = 50 * ext, disp_unit = ext, flavor = rma.opt.flavor }
    local mem = ctx.win:local_buffer(dt)
    for i = 0, 49 do mem:set(i, 0, 0) end
    ctx.orig = rma.buffer(50, dt)
    for i = 0, 49 do ctx.orig:set(i, 1, 1) end
  end,
  run = function(ctx)
    if rma.rank == 0 and rma.size > 1 then
      local v = rma.type_vector(10, 3, 5, rma.opt.dtype)
      tm.expect_type(v, tm.vector(10, 3, 5, rma.opt.dtype), "vector of pairs")
      ctx.win:lock(1, "shared")
      ctx.win:accumulate(ctx.orig, 1, 0, "maxloc", { origin_type = v, target_type = v })
      ctx.win:unlock(1)
      v:free()
    end
  end,
  check = function(ctx)
    if rma.rank ~= 1 then return end
    ctx.win:lock(1, "shared")
    local mem = ctx.win:local_buffer(rma.opt.dtype)
    for i = 0, 49 do
      local a, b = mem:get(i)
      local want = (i % 5 < 3) and 1 or 0
      rma.expect(a == want and b == want, string.format("pair %d: got (%s, %s), want (%d, %d)",
                 i, tostring(a), tostring(b), want, want))
    end
    ctx.win:unlock(1)
  end,
  teardown = function(ctx) if ctx.win then ctx.win:free() end end,
}
