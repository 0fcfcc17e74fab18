-- Paths are chosen per window, once: here one window asks for am and one for auto (direct
-- where the backend can). Every accumulate of a window takes that window's path — the am
-- window counts packets and no direct operation, the direct window the opposite — and the
-- path a window reports never changes.
return {
  ranks = 2,
  options = { ops = {"accumulates per window", 20} },
  setup = function(ctx)
    ctx.am = rma.window{ size = 64, path = "am" }
    ctx.auto = rma.window{ size = 64, path = "auto" }
    ctx.one = rma.buffer(1, "i64"):fill(1)
  end,
  run = function(ctx)
    if rma.rank == 0 then
      for _, w in ipairs({ctx.am, ctx.auto}) do
        w:lock(1, "shared")
        for i = 1, rma.opt.ops do
          w:accumulate(ctx.one, 1, 8 * (i % 4), i % 2 == 0 and "sum" or "max")
        end
        w:unlock(1)
      end
    end
  end,
  check = function(ctx)
    rma.expect_eq(ctx.am:path(), "am", "the am window stays am")
    local direct = ctx.auto:path() == "direct"
    if rma.backend == "shm" then rma.expect(direct, "auto chose direct on shm") end
    if rma.rank == 0 then
      local a, d = ctx.am:counters(), ctx.auto:counters()
      rma.expect_eq(a.by_type.accumulate, rma.opt.ops, "am window: every accumulate a packet")
      rma.expect_eq(a.direct.accumulate, nil, "am window: no direct accumulate")
      if direct then
        rma.expect_eq(d.rma, 0, "direct window: no packet")
        rma.expect_eq(d.direct.accumulate, rma.opt.ops, "direct window: every accumulate direct")
      end
    end
  end,
  teardown = function(ctx) ctx.am:free(); ctx.auto:free() end,
}
