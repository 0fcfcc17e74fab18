-- get_accumulate_derived: a port of MPICH's test/mpi/rma/get_accumulate.c built with
-- GACC_TYPE_DERIVED (get_accumulate_{short,int,long,double}_derived: -o dtype=i16, i32, i64,
-- f64), where every side of every get_accumulate is `count` instances of a derived type
-- (contiguous(1, dtype)). Each rank's window holds nproc·count elements. Rounds, `iters`
-- get_accumulates (sum) each: to itself and to its right neighbour under an exclusive lock
-- (window elements 0..count-1 must reach iters); every other rank to rank 0 (iters·(nproc-1));
-- all-to-all into slot `rank` of every window under fence, lock_all, and lock_all with a
-- flush per target, the value being the rank (each result, in iteration i, i·rank; each
-- slot r of each window finally iters·r); then no_op reads (no origin) of the neighbour's
-- and of its own window, all `rank`, which must return that. Beyond MPICH's checks, every
-- window element no round targets must keep its 0. MPICH: 100 iterations, counts 5 and 1000.
local tm = require("typemap")  -- the model of the derived type

return {
  ranks = 4,
  options = {
    dtype = {"i16 (short), i32 (int), i64 (long) or f64 (double)", "i32"},
    count = {"elements per op: 0 runs MPICH's two (5 and 1000)", 0},
    iters = {"get_accumulates per round (MPICH: 100)", 20},
  },
  run = function(ctx)
    local dt, np, me, iters = rma.opt.dtype, rma.size, rma.rank, rma.opt.iters
    for _, count in ipairs(rma.opt.count > 0 and { rma.opt.count } or { 5, 1000 }) do
      local s = tm.dtype_size(dt)
      local win = rma.window{ size = np * count * s, disp_unit = s, flavor = "create" }
      local d = rma.type_contiguous(1, dt)
      tm.expect_type(d, tm.contiguous(1, dt), "derived type")
      local L = { origin_type = d, origin_count = count, result_type = d, result_count = count,
                  target_type = d, target_count = count }
      local res = rma.buffer(np * count, dt)
      local val = rma.buffer(count, dt)
      local function reset(v)
        rma.barrier()
        win:lock(me, "exclusive"); win:local_buffer(dt):fill(0); win:unlock(me)
        res:fill(-1); val:fill(v)
        rma.barrier()
      end
      -- Window elements [0, count) hold `want`, every other element 0.
      local function expect_window(want, what)
        win:lock(me, "exclusive")
        local mem = win:local_buffer(dt)
        for i = 0, np * count - 1 do
          local w = i < count and want or 0
          if mem:get(i) ~= w then
            rma.expect_eq(mem:get(i), w, what .. " count=" .. count .. ": element " .. i); break
          end
        end
        win:unlock(me)
      end
      -- self, then neighbour
      for _, round in ipairs({ "self", "neighbour" }) do
        reset(1)
        local t = round == "self" and me or (me + 1) % np
        for _ = 1, iters do
          win:lock(t, "exclusive"); win:get_accumulate(val, res, t, 0, "sum", L); win:unlock(t)
        end
        rma.barrier()
        expect_window(iters, round)
      end
      -- contention on rank 0
      reset(1)
      if me ~= 0 then
        for _ = 1, iters do
          win:lock(0, "exclusive"); win:get_accumulate(val, res, 0, 0, "sum", L); win:unlock(0)
        end
      end
      rma.barrier()
      if me == 0 and np > 1 then expect_window(iters * (np - 1), "contention") end
      -- all-to-all
      for _, how in ipairs({ "fence", "lock_all", "lock_all+flush" }) do
        reset(me)
        for i = 0, iters - 1 do
          if how == "fence" then win:fence("noprecede") else win:lock_all() end
          for j = 0, np - 1 do
            win:get_accumulate(val, res:sub(j * count, count), j, me * count, "sum", L)
            if how == "lock_all+flush" then win:flush(j) end
          end
          if how == "fence" then win:fence("nosucceed") else win:unlock_all() end
          rma.barrier()
          for j = 0, np - 1 do
            for c = 0, count - 1 do
              local got = res:get(j * count + c)
              if got ~= i * me then
                rma.expect_eq(got, i * me, how .. " count=" .. count .. ": result from " .. j ..
                              " in iteration " .. i); break
              end
            end
          end
        end
        rma.barrier()
        win:lock(me, "exclusive")
        local mem = win:local_buffer(dt)
        for r = 0, np - 1 do
          for c = 0, count - 1 do
            if mem:get(r * count + c) ~= iters * r then
              rma.expect_eq(mem:get(r * count + c), iters * r, how .. " count=" .. count .. ": slot " .. r); break
            end
          end
        end
        win:unlock(me)
      end
      -- no_op reads, no origin buffer: the neighbour's window, then its own
      for _, round in ipairs({ "no_op neighbour", "no_op self" }) do
        reset(1)
        win:lock(me, "exclusive"); win:local_buffer(dt):fill(me); win:unlock(me)
        rma.barrier()
        local t = round == "no_op self" and me or (me + 1) % np
        local R = { result_type = d, result_count = count, target_type = d, target_count = count }
        for _ = 1, iters do
          res:fill(-1)
          win:lock(t, "exclusive"); win:get_accumulate(nil, res, t, 0, "no_op", R); win:unlock(t)
          for c = 0, count - 1 do
            if res:get(c) ~= t then
              rma.expect_eq(res:get(c), t, round .. " count=" .. count .. ": element " .. c); break
            end
          end
          if np > 1 and res:get(count) ~= -1 then
            rma.expect_eq(res:get(count), -1, round .. ": past the result layout")
          end
        end
      end
      rma.barrier()
      d:free()
      win:free()
    end
  end,
}
