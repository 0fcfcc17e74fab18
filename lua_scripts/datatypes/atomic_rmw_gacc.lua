-- atomic_rmw_gacc: a port of MPICH's test/mpi/rma/atomic_rmw_gacc.c (the read-modify-write
-- of get_accumulate is atomic per element). Ranks 0 and 1 issue, under lock_all, ops0 and
-- ops1 get_accumulates (sum) of op_count ints all 1 into the same op_count ints of rank 2,
-- each flushed; in four parts: basic types on all sides, a derived type (contiguous of
-- op_count ints) on origin/result and target, basic origin with derived target, derived
-- origin with basic target. Per element, the old values the ops return must be 0, 1, ...,
-- ops0 + ops1 - 1, each exactly once across both origins (MPICH checks that the two
-- origins never saw the same one), and rank 2's elements end at ops0 + ops1. MPICH: 10000
-- and 10 ops, 15 loops, the whole test twice.
local tm = require("typemap")  -- the model of the derived type

return {
  ranks = 3,
  options = {
    ops0 = {"get_accumulates from rank 0 (MPICH: 10000)", 200},
    ops1 = {"get_accumulates from rank 1 (MPICH: 10)", 10},
    op_count = {"ints per op", 10},
    loops = {"rounds of the four parts (MPICH: 15, twice)", 2},
  },
  setup = function(ctx)
    if rma.size ~= 3 then rma.skip("runs on exactly 3 ranks (two origins and a target)") end
    ctx.win = rma.window{ size = rma.opt.op_count * 4, disp_unit = 4 }
  end,
  run = function(ctx)
    local k, me, win = rma.opt.op_count, rma.rank, ctx.win
    local n = me == 0 and rma.opt.ops0 or rma.opt.ops1
    local total = rma.opt.ops0 + rma.opt.ops1
    local parts = { "basic", "derived", "basic origin, derived target", "derived origin, basic target" }
    for loop = 1, rma.opt.loops do
      for _, part in ipairs(parts) do
        local orig, result
        if me == 2 then win:local_buffer("i32"):fill(0)
        else
          orig = rma.buffer(n * k, "i32"):fill(1)
          result = rma.buffer(n * k, "i32"):fill(-1)
        end
        rma.barrier()
        win:lock_all()
        if me ~= 2 then
          local d = rma.type_contiguous(k, "i32")
          tm.expect_type(d, tm.contiguous(k, "i32"), "derived type")
          for i = 0, n - 1 do
            local L
            if part == "derived" then L = { origin_type = d, result_type = d, target_type = d }
            elseif part == "basic origin, derived target" then L = { target_type = d }
            elseif part == "derived origin, basic target" then L = { origin_type = d, result_type = d }
            end
            win:get_accumulate(orig:sub(i * k, k), result:sub(i * k, k), 2, 0, "sum", L)
            win:flush(2)
          end
          d:free()
        end
        win:unlock_all()
        rma.barrier()
        local what = part .. ", loop " .. loop
        if me == 1 then rma.send(0, result, 9)
        elseif me == 0 then
          local other = rma.buffer(rma.opt.ops1 * k, "i32")
          rma.recv(1, other, 9)
          for m = 0, k - 1 do
            local seen, bad = {}, nil
            for _, src in ipairs({ { result, rma.opt.ops0 }, { other, rma.opt.ops1 } }) do
              for i = 0, src[2] - 1 do
                local v = src[1]:get(i * k + m)
                if v < 0 or v >= total or seen[v] then bad = bad or v end
                seen[v] = true
              end
            end
            rma.expect(bad == nil, what .. ": element " .. m .. ": old value " .. tostring(bad) ..
                       " out of range or returned twice (not atomic)")
          end
        else
          local mem = win:local_buffer("i32")
          for m = 0, k - 1 do rma.expect_eq(mem:get(m), total, what .. ": target element " .. m) end
        end
        rma.barrier()
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
