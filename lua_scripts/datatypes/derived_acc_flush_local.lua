-- derived_acc_flush_local: a port of MPICH's test/mpi/rma/derived_acc_flush_local.c. Rank 1,
-- then rank 2, each under a shared lock on rank 0 issues `ops` accumulates (sum) of a large
-- origin vector type (count blocks of blocklength-1 ints, stride blocklength) into
-- data - count contiguous ints at rank 0, each followed by flush_local; rank 0's window, all
-- 0 before each round, must then hold `ops` in those elements and 0 in the last `count`
-- (never targeted). The origin's skipped elements hold 1000, not 1: a layout that read them
-- would show in the sums. MPICH's sizes (data 1,000,000, count 5000, ops 500) with
-- -o full=true.
local tm = require("typemap")  -- the model of the vector type

local function sizes()
  if rma.opt.full then return 1000000, 5000, 500 end
  return rma.opt.data, rma.opt.count, rma.opt.ops
end

return {
  ranks = 3,
  options = {
    data = {"ints in each buffer", 10000}, count = {"vector blocks", 50},
    ops = {"accumulates per origin", 20},
    full = {"MPICH's sizes: 1,000,000 ints, 5000 blocks, 500 accumulates", false},
  },
  setup = function(ctx)
    if rma.size < 3 then rma.skip("needs 3 ranks: two origins and a target") end
    local data, count = sizes()
    local bl = data // count
    ctx.orig = rma.buffer(data, "i32"):fill(1)
    for k = 0, count - 1 do ctx.orig:set(k * bl + bl - 1, 1000) end  -- the gaps
    ctx.win = rma.window{ size = data * 4, disp_unit = 4, flavor = "create" }
  end,
  run = function(ctx)
    local data, count, ops = sizes()
    local bl = data // count
    for _, origin in ipairs({ 1, 2 }) do
      if rma.rank == 0 then ctx.win:local_buffer("i32"):fill(0) end
      rma.barrier()
      if rma.rank == origin then
        local t = rma.type_vector(count, bl - 1, bl, "i32")
        tm.expect_type(t, tm.vector(count, bl - 1, bl, "i32"), "vector")
        local flat = rma.type_contiguous(data - count, "i32")
        ctx.win:lock(0, "shared")
        for _ = 1, ops do
          ctx.win:accumulate(ctx.orig, 0, 0, "sum",
                             { origin_type = t, target_type = flat })
          ctx.win:flush_local(0)
        end
        ctx.win:unlock(0)
        t:free(); flat:free()
      end
      rma.barrier()
      if rma.rank == 0 then
        local mem, bad = ctx.win:local_buffer("i32"), 0
        local first
        for i = 0, data - 1 do
          local want = i < data - count and ops or 0
          if mem:get(i) ~= want then
            bad = bad + 1
            first = first or string.format("element %d: got %d, want %d", i, mem:get(i), want)
          end
        end
        rma.expect(bad == 0, "after origin " .. origin .. ": " .. bad .. " wrong, first " .. tostring(first))
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
