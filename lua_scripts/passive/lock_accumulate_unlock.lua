-- lock-accumulate-unlock: one accumulate(sum, i64) between lock and unlock. Like the put,
-- the lock travels with it and the ack is the unlock: two messages. The result is checked
-- against the harness's own oracle.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  options = { count = {"i64 elements", 1} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 * rma.opt.count }
    ctx.win:local_buffer("i64"):iota(100, 3)
    ctx.add = rma.buffer(rma.opt.count, "i64"):iota(-5, 2)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "shared")
      ctx.win:accumulate(ctx.add, 1, 0, "sum")
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 1 then
      local want = rma.buffer(rma.opt.count, "i64"):iota(100, 3):apply("sum", ctx.add)
      rma.expect_eq(ctx.win:local_buffer("i64"), want, "sum applied to every element")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    if 8 * rma.opt.count <= rma.eager_limit then return { total = 2, accumulate = 1, ack = 1 } end
    return counts.with_epoch({ accumulate = 1, cts = 1, ack = 1 }, "lock", 1)
  end,
}
