-- A shared counter: every rank does `count` fetch_and_op(sum, 1) on one counter at rank 0
-- under lock_all. Atomicity means the final value is size * count and every value fetched,
-- over all ranks, is distinct (0 .. size*count-1, each exactly once).
return {
  ranks = 4,
  options = { count = {"increments per rank", 1000} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
    -- MPI_Win_allocate's memory starts undefined (MPI-3.1 §11.2.2): the count starts at 0.
    ctx.win:local_buffer("i64"):fill(0)
    ctx.seen = rma.buffer(rma.opt.count, "i64")
  end,
  run = function(ctx)
    ctx.win:lock_all()
    for i = 0, rma.opt.count - 1 do
      ctx.seen:set(i, ctx.win:fetch_and_op(1, 0, 0, "sum", "i64"))
    end
    ctx.win:unlock_all()
  end,
  check = function(ctx)
    local total = rma.size * rma.opt.count
    if rma.rank ~= 0 then
      rma.send(0, ctx.seen, 1)
      return
    end
    rma.expect_eq(ctx.win:local_buffer("i64"):get(0), total, "final counter value")
    local hit = rma.buffer(total, "u8")
    local dup, out = 0, 0
    local function mark(buf)
      for i = 0, buf:count() - 1 do
        local v = buf:get(i)
        if v < 0 or v >= total then out = out + 1
        elseif hit:get(v) == 1 then dup = dup + 1
        else hit:set(v, 1) end
      end
    end
    mark(ctx.seen)
    local other = rma.buffer(rma.opt.count, "i64")
    for r = 1, rma.size - 1 do
      rma.recv(r, other, 1)
      mark(other)
    end
    rma.expect_eq(dup, 0, "fetched values seen twice")
    rma.expect_eq(out, 0, "fetched values out of range")
  end,
  teardown = function(ctx) ctx.win:free() end,
}
