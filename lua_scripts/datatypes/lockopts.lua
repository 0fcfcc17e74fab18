-- lockopts: a port of MPICH's test/mpi/rma/lockopts.c, its four derived-origin cases
-- (origin a vector of 10 ints at stride 4, target 10 contiguous ints, under a shared lock
-- from rank 1 on rank 0): accumulate (sum); put; a get of element 10 then the put in one
-- epoch; the put then that get (MPICH's "move-to-end" of gets). After each, rank 0 checks,
-- under an exclusive lock on itself, elements 0..9 (-i + 4i for the accumulate, 4i for the
-- puts) and that every other element kept its -i, then resets them; the gets must read -10.
local tm = require("typemap")  -- the model of the vector type

local MEMSIZE = 64

return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = MEMSIZE * 4, disp_unit = 4, flavor = "create" }
    ctx.win:local_buffer("i32"):iota(0, -1)
    ctx.src = rma.buffer(MEMSIZE, "i32"):iota(0, 1)
  end,
  run = function(ctx)
    local win = ctx.win
    local steps = {
      { what = "accumulate", want = function(i) return -i + 4 * i end },
      { what = "put", want = function(i) return 4 * i end },
      { what = "get, put", want = function(i) return 4 * i end },
      { what = "put, get", want = function(i) return 4 * i end },
    }
    for _, s in ipairs(steps) do
      if rma.rank == 1 then
        local v = rma.type_vector(10, 1, 4, "i32")
        tm.expect_type(v, tm.vector(10, 1, 4, "i32"), "vector")
        local flat = rma.type_contiguous(10, "i32")
        local layout = { origin_type = v, target_type = flat }
        local val = rma.buffer(1, "i32")
        win:lock(0, "shared")
        if s.what == "accumulate" then win:accumulate(ctx.src, 0, 0, "sum", layout)
        elseif s.what == "put" then win:put(ctx.src, 0, 0, layout)
        elseif s.what == "get, put" then win:get(val, 0, 10); win:put(ctx.src, 0, 0, layout)
        else win:put(ctx.src, 0, 0, layout); win:get(val, 0, 10) end
        win:unlock(0)
        v:free(); flat:free()
        if s.what:find("get") then rma.expect_eq(val:get(0), -10, s.what .. ": the get of element 10") end
      end
      rma.barrier()
      if rma.rank == 0 then
        win:lock(0, "exclusive")
        local mem = win:local_buffer("i32")
        for i = 0, MEMSIZE - 1 do
          local want = i < 10 and s.want(i) or -i
          rma.expect_eq(mem:get(i), want, s.what .. ": element " .. i)
          mem:set(i, -i)
        end
        win:unlock(0)
      end
      rma.barrier()
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
