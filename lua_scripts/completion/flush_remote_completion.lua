-- flush means remote completion, proven through a third rank. Rank 0 opens a shared lock
-- on rank 1, writes there (a put, or an accumulate with `op=accumulate`), flushes, and
-- then — its epoch still open — tells rank 2 by a message. Rank 2 then reads rank 1's
-- memory in an epoch of its own and must see the write: after MPI_Win_flush the operation
-- is complete at the target, visible to any other origin that synchronizes after it, not
-- only once the writer unlocks. Rank 0 waits for rank 2's answer before it unlocks, so the
-- unlock cannot be what completed the write. Repeated `rounds` times with new values.
-- Messages (am), per round: rank 0's op and its ack (the first op carries the lock), rank
-- 2's singleton get (carrying lock and unlock) and its reply; then rank 0's unlock packet.
return {
  ranks = 3,
  options = {
    op = {"put or accumulate", "put"},
    rounds = {"write, flush, tell, read rounds", 3},
  },
  setup = function(ctx)
    if rma.size < 3 then rma.skip("needs a writer, a target and a third rank that reads: 3 ranks") end
    ctx.win = rma.window{ size = 8 }
    ctx.win:local_buffer("i64"):set(0, 1000)
    ctx.val = rma.buffer(1, "i64")
    ctx.got = rma.buffer(1, "i64")
    ctx.note = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    local acc = rma.opt.op == "accumulate"
    if rma.rank == 0 then
      ctx.win:lock(1, "shared")
      for k = 1, rma.opt.rounds do
        ctx.val:set(0, k)
        if acc then ctx.win:accumulate(ctx.val, 1, 0, "sum") else ctx.win:put(ctx.val, 1, 0) end
        ctx.win:flush(1)
        rma.send(2, ctx.note:set(0, k), 8)
        rma.recv(2, ctx.note, 9)           -- rank 2 has read: only now may the epoch go on
      end
      ctx.win:unlock(1)
    elseif rma.rank == 2 then
      local want = 1000
      for k = 1, rma.opt.rounds do
        rma.recv(0, ctx.note, 8)
        ctx.win:lock(1, "shared")
        ctx.win:get(ctx.got, 1, 0)
        ctx.win:unlock(1)
        want = acc and rma.oracle("sum", "i64", want, k) or k
        rma.expect_eq(ctx.got:get(0), want, "round " .. k .. ": the write is visible after flush")
        rma.send(0, ctx.note, 9)
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local r = rma.opt.rounds
    local by = { total = 4 * r + 1, ack = r, get = r, get_resp = r, unlock = 1 }
    by[rma.opt.op] = r
    return by
  end,
}
