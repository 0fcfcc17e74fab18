-- Window "create" (MPI_Win_create): the window exposes memory that already exists. With
-- `memory=true` it is a Lua buffer the rank filled before creating the window; without, the
-- harness gets memory for it from the runtime (MPI_Alloc_mem, which the direct path can
-- map). Each rank's left neighbour, in one exclusive lock epoch, reads the first half (the
-- values stored before the window existed) and writes the second half; afterwards the rank
-- sees the write in its own buffer — the very buffer it gave the window, not a copy — and
-- the left neighbour got the stored values. Memory the runtime did not allocate cannot be
-- mapped by the shm direct path, so over a Lua buffer the window asks for "auto" when the
-- case runs on direct and goes by packets (the report shows the path). Messages (am): lock,
-- grant, the put, and the get moved last with its reply — 5 per rank.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  options = {
    memory = {"create over a Lua buffer (false: over memory from the runtime)", true},
    count = {"i64 elements per half", 8},
  },
  setup = function(ctx)
    local n = rma.opt.count
    if rma.opt.memory then
      ctx.mem = rma.buffer(2 * n, "i64")
      ctx.mem:sub(0, n):iota(rma.rank * 1000)
      ctx.win = rma.window{ flavor = "create", memory = ctx.mem,
                            path = rma.path == "direct" and "auto" or nil }
    else
      ctx.win = rma.window{ flavor = "create", size = 16 * n }
      ctx.mem = ctx.win:local_buffer("i64")
      ctx.mem:sub(0, n):iota(rma.rank * 1000)
    end
    rma.expect_eq(ctx.win:flavor(), "create", "the window's flavor")
    rma.expect_eq(ctx.win:size(), 16 * n, "the window's size")
    ctx.got = rma.buffer(n, "i64")
    ctx.data = rma.buffer(n, "i64"):iota(rma.rank * 10 + 5, 2)
  end,
  run = function(ctx)
    local n = rma.opt.count
    local right = (rma.rank + 1) % rma.size
    ctx.win:lock(right, "exclusive")
    ctx.win:get(ctx.got, right, 0)
    ctx.win:put(ctx.data, right, 8 * n)
    ctx.win:unlock(right)
  end,
  check = function(ctx)
    local n = rma.opt.count
    local left, right = (rma.rank - 1) % rma.size, (rma.rank + 1) % rma.size
    rma.expect_eq(ctx.mem:sub(n, n), rma.buffer(n, "i64"):iota(left * 10 + 5, 2),
                  "the left neighbour's put, in the memory given to the window")
    rma.expect_eq(ctx.mem:sub(0, n), rma.buffer(n, "i64"):iota(rma.rank * 1000), "my first half untouched")
    rma.expect_eq(ctx.got, rma.buffer(n, "i64"):iota(right * 1000), "got the values stored before creation")
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n = rma.size
    if n == 1 then return { total = 0 } end
    return counts.with_epoch({ put = n, get = n, get_resp = n }, "lock", n)
  end,
}
