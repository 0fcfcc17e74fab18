-- selfrma: a port of MPICH's test/mpi/rma/selfrma.c. Each rank, on its own window of `count`
-- ints, uses one vector type (count/4 blocks of 1, stride 2) on both sides: a put under an
-- exclusive lock on itself, an accumulate (sum) under a shared one (the window cleared
-- before each), then a get back into the cleared origin buffer. Every strided element must
-- hold the origin's value (i at element i), and — beyond MPICH's checks — every other
-- element its 0.
local tm = require("typemap")  -- the model of the vector type

local function check_strided(view, n, label)
  local bad, first = 0, nil
  for i = 0, n - 1 do
    local want = (i % 2 == 0 and i < 2 * (n // 4)) and i or 0
    if view:get(i) ~= want then
      bad = bad + 1
      first = first or string.format("element %d: got %d, want %d", i, view:get(i), want)
    end
  end
  rma.expect(bad == 0, label .. ": " .. bad .. " wrong, first " .. tostring(first))
end

return {
  ranks = 1,
  options = { count = {"ints in the window (MPICH: 1000)", 1000} },
  setup = function(ctx)
    local n = rma.opt.count
    ctx.win = rma.window{ size = n * 4, disp_unit = 4, flavor = "create" }
    ctx.sbuf = rma.buffer(n, "i32"):iota(0, 1)
  end,
  run = function(ctx)
    local n, me, win = rma.opt.count, rma.rank, ctx.win
    local v = rma.type_vector(n // 4, 1, 2, "i32")
    tm.expect_type(v, tm.vector(n // 4, 1, 2, "i32"), "vector")
    local layout = { origin_type = v, target_type = v }
    win:local_buffer("i32"):fill(0)
    win:lock(me, "exclusive"); win:put(ctx.sbuf, me, 0, layout); win:unlock(me)
    check_strided(win:local_buffer("i32"), n, "window after the put")
    win:local_buffer("i32"):fill(0)
    win:lock(me, "shared"); win:accumulate(ctx.sbuf, me, 0, "sum", layout); win:unlock(me)
    check_strided(win:local_buffer("i32"), n, "window after the accumulate")
    ctx.sbuf:fill(0)
    win:lock(me, "shared"); win:get(ctx.sbuf, me, 0, layout); win:unlock(me)
    check_strided(ctx.sbuf, n, "buffer after the get")
    v:free()
  end,
  teardown = function(ctx) ctx.win:free() end,
}
