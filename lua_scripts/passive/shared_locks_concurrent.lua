-- Shared locks held together. Every rank takes a shared lock on rank 0 (rank 0 on itself
-- too), adds 1 to a counter there and flushes — after the flush the lock is certainly held,
-- even by an implementation that requests locks lazily. Then, still inside their epochs,
-- the ranks shake hands: each sends a token to every other rank and waits for everyone's.
-- The handshake can only finish if all of them hold the lock at the same moment, which is
-- what MPI's shared lock promises; an implementation that serialized shared locks (or
-- granted them like exclusive ones) leaves a rank stuck in flush while the others wait for
-- its token, and the case ends as a deadlock. With `lock=exclusive` the same program must
-- deadlock (the suite runs it so, expecting exactly that): two exclusive holders can never
-- meet. Accumulates (all "sum") keep the counter exact under concurrency. On the am path a
-- remote rank's epoch costs 3 messages: the accumulate carrying the lock request, its ack
-- (the grant), and the unlock packet.
return {
  ranks = 3,
  options = { lock = {"lock type: shared, or exclusive for the must-deadlock twin", "shared"} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
    -- MPI_Win_allocate's memory starts undefined (MPI-3.1 §11.2.2): the count starts at 0.
    ctx.win:local_buffer("i64"):fill(0)
    ctx.one = rma.buffer(1, "i64"):fill(1)
    ctx.token = rma.buffer(1, "i64"):fill(rma.rank)
    ctx.into = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    ctx.win:lock(0, rma.opt.lock)
    ctx.win:accumulate(ctx.one, 0, 0, "sum")
    ctx.win:flush(0)
    -- Everyone holds the lock now: prove it by meeting inside the epoch.
    for r = 0, rma.size - 1 do
      if r ~= rma.rank then rma.send(r, ctx.token, 3) end
    end
    for r = 0, rma.size - 1 do
      if r ~= rma.rank then
        rma.recv(r, ctx.into, 3)
        rma.expect_eq(ctx.into:get(0), r, "token from rank " .. r)
      end
    end
    ctx.win:unlock(0)
  end,
  check = function(ctx)
    if rma.rank == 0 then
      rma.expect_eq(ctx.win:local_buffer("i64"):get(0), rma.size, "one add per holder")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n = rma.size - 1
    return { total = 3 * n, accumulate = n, ack = n, unlock = n }
  end,
}
