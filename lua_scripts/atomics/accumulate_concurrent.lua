-- Concurrent accumulates into one window: every rank adds a buffer of ones (i64, `bytes`
-- long) into rank 0's window `times` times, all at once under lock_all. Each element must
-- end at size * times: element-wise atomicity, on the am path by the target's serialization
-- and on the direct path by CPU atomics (or striped region locks).
return {
  ranks = 4,
  options = { bytes = {"bytes per accumulate", 1048576}, times = {"accumulates per rank", 50} },
  setup = function(ctx)
    ctx.count = rma.opt.bytes // 8
    ctx.win = rma.window{ size = rma.opt.bytes }
    ctx.ones = rma.buffer(ctx.count, "i64"):fill(1)
  end,
  run = function(ctx)
    ctx.win:lock_all()
    for _ = 1, rma.opt.times do
      ctx.win:accumulate(ctx.ones, 0, 0, "sum")
      ctx.win:flush(0)
    end
    ctx.win:unlock_all()
  end,
  check = function(ctx)
    if rma.rank == 0 then
      local want = rma.buffer(ctx.count, "i64"):fill(rma.size * rma.opt.times)
      rma.expect_eq(ctx.win:local_buffer("i64"), want, "every element got every add")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
