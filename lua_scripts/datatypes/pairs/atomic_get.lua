-- atomic_get: a port of MPICH's test/mpi/rma/atomic_get.c (atomic_get_{short_int,2int,
-- long_int,float_int,double_int}: -o dtype=...; long double int has no dtype here). Rank 2
-- keeps replacing rank 0's pairs with accumulate(replace), each pair (v, v) for a fresh v,
-- while rank 1 reads them in the same fence epoch with atomic reads: fetch_and_op(no_op)
-- with and without an origin value, get_accumulate(no_op) of ten pairs with an origin
-- buffer, without one, and with an origin count of 0. Every pair rank 1 reads must be
-- whole — its value and its index equal (0, 0 from the initial fill included): an
-- accumulate or read that tears a pair fails. MPICH: 100 rounds per read form, 10,000
-- accumulates per round. Skipped while the implementation has no pair dtypes.
local tm = require("typemap")  -- pair layouts

local DATA, GACC = 100, 10

-- v as the pair's value type holds it (short_int's value is an i16).
local function as_value(dt, v)
  return tm.wrap(tm.PAIR[dt].value, v)
end

return {
  ranks = 3,
  options = {
    dtype = {"pair dtype: 2int, short_int, long_int, float_int or double_int", "2int"},
    rounds = {"rounds per read form (MPICH: 100)", 3},
    ops = {"accumulates per round (MPICH: 10000)", 1000},
  },
  setup = function(ctx)
    local dt = rma.opt.dtype
    if not pcall(rma.buffer, 1, dt) then rma.skip("no pair dtype " .. dt .. " in this implementation yet") end
    if rma.size < 3 then rma.skip("needs 3 ranks: a target, a reader, a writer") end
    ctx.ext = tm.PAIR[dt].extent
    ctx.win = rma.window{ size = DATA * ctx.ext, disp_unit = ctx.ext }
    ctx.orig = rma.buffer(DATA, dt)
    ctx.result = rma.buffer(DATA, dt)
  end,
  run = function(ctx)
    local dt, win, me = rma.opt.dtype, ctx.win, rma.rank
    local forms = { "fetch_and_op", "fetch_and_op nil", "get_accumulate", "get_accumulate nil",
                    "get_accumulate count 0" }
    local j = 0
    for _, form in ipairs(forms) do
      for _ = 1, rma.opt.rounds do
        j = j + 1
        if me == 0 then
          win:lock(0, "exclusive")
          local mem = win:local_buffer(dt)
          for i = 0, DATA - 1 do mem:set(i, 0, 0) end
          win:unlock(0)
        end
        for i = 0, DATA - 1 do ctx.result:set(i, 0, 0) end
        rma.barrier()
        win:fence()
        if me == 2 then
          local base = (j * rma.opt.ops) % 30000  -- stays exact in every pair's value type
          if form:find("fetch_and_op") then
            for i = 0, rma.opt.ops - 1 do
              local v = base + i
              ctx.orig:set(0, as_value(dt, v), v)
              win:accumulate(ctx.orig:sub(0, 1), 0, 0, "replace")
            end
          else
            for i = 0, rma.opt.ops // GACC - 1 do
              for k = 0, GACC - 1 do
                local v = base + i * GACC + k
                ctx.orig:set(k, as_value(dt, v), v)
              end
              win:accumulate(ctx.orig:sub(0, GACC), 0, 0, "replace")
            end
          end
        elseif me == 1 then
          if form == "fetch_and_op" or form == "fetch_and_op nil" then
            local value = form == "fetch_and_op" and ctx.orig:get(0) or nil
            for i = 0, DATA - 1 do
              win:fetch_and_op(value, 0, 0, "no_op", dt, ctx.result:sub(i, 1))
            end
          else
            for i = 0, DATA // GACC - 1 do
              local res = ctx.result:sub(i * GACC, GACC)
              if form == "get_accumulate" then
                win:get_accumulate(ctx.orig:sub(0, GACC), res, 0, 0, "no_op")
              elseif form == "get_accumulate nil" then
                win:get_accumulate(nil, res, 0, 0, "no_op")
              else
                -- MPI ignores the origin of a no_op: a count of 0 must not make the
                -- signatures differ.
                local t = rma.type_contiguous(GACC, dt)
                win:get_accumulate(ctx.orig:sub(0, GACC), res, 0, 0, "no_op",
                                   { origin_count = 0, target_type = t })
                t:free()
              end
            end
          end
        end
        win:fence()
        if me == 1 then
          local torn
          for i = 0, DATA - 1 do
            local a, b = ctx.result:get(i)
            if a ~= as_value(dt, b) then
              torn = torn or string.format("pair %d = (%s, %s)", i, tostring(a), tostring(b))
            end
          end
          rma.expect(torn == nil, form .. ", round " .. j .. ": a torn pair: " .. tostring(torn))
        end
      end
    end
  end,
  teardown = function(ctx) if ctx.win then ctx.win:free() end end,
}
