-- A shared window (MPI_Win_allocate_shared): every rank can load and store every rank's
-- memory through shared_query. Rank 2 puts, accumulates and does a fetch_and_op into rank 0's
-- memory, flushes (remote completion), then tells rank 1 with a message; rank 1, after a
-- sync, loads rank 0's memory directly and must see all three updates (and rank 0's initial
-- stores, which its own sync in setup publishes).
return {
  ranks = 3,
  setup = function(ctx)
    if rma.size < 3 then rma.skip("needs three ranks") end
    local ok, win = pcall(rma.window, { size = 64, flavor = "shared" })
    if not ok and type(win) == "table" and win.class == "RMA_FLAVOR" then
      -- Creation is collective: every rank gets the same error, so every rank skips.
      rma.skip("backend " .. rma.backend .. " has no memory every rank can map: " .. win.message)
    elseif not ok then
      error(win, 0)
    end
    ctx.win = win
    -- The stores reach the window before rank 1's sync-then-load (MPI-3.1 ex. 11.21). The
    -- sync sits in a passive-target epoch, as in the example: MPICH refuses MPI_Win_sync
    -- outside one (RMA_SYNC).
    ctx.win:lock_all()
    ctx.win:local_buffer("i64"):fill(10)
    ctx.win:sync()
    ctx.win:unlock_all()
    ctx.note = rma.buffer(1, "u8")
  end,
  run = function(ctx)
    ctx.win:lock_all()
    if rma.rank == 2 then
      ctx.win:put(rma.buffer(1, "i64"):set(0, 77), 0, 0)
      ctx.win:accumulate(rma.buffer(1, "i64"):set(0, 5), 0, 8, "sum")
      ctx.old = ctx.win:fetch_and_op(3, 0, 16, "sum", "i64")
      ctx.win:flush(0)
      rma.send(1, ctx.note, 4)
    elseif rma.rank == 1 then
      rma.recv(2, ctx.note, 4)
      ctx.win:sync()
      local peer = ctx.win:shared_query(0, "i64")
      ctx.seen = { peer:get(0), peer:get(1), peer:get(2) }
    end
    ctx.win:unlock_all()
  end,
  check = function(ctx)
    if rma.rank == 1 then
      rma.expect_eq(ctx.seen[1], 77, "the put, seen by a load")
      rma.expect_eq(ctx.seen[2], rma.oracle("sum", "i64", 10, 5), "the accumulate")
      rma.expect_eq(ctx.seen[3], rma.oracle("sum", "i64", 10, 3), "the fetch_and_op")
    elseif rma.rank == 2 then
      rma.expect_eq(ctx.old, 10, "fetch_and_op returned the old value")
    end
    -- Contiguous by default: rank r's memory follows rank r-1's.
    if rma.rank > 0 then
      local mine = ctx.win:shared_query(rma.rank, "u8")
      local prev = ctx.win:shared_query(rma.rank - 1, "u8")
      rma.expect_eq(prev:count(), 64, "every rank's memory has its size")
      rma.expect(mine:count() == 64, "my memory has its size")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
