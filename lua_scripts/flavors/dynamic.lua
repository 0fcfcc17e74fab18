-- Dynamic windows (MPI_Win_create_dynamic): memory is attached after creation and addressed
-- by its address. Each rank attaches two adjacent halves of one buffer as two regions and
-- publishes the address; its left neighbour puts across both halves at once, accumulates
-- into one, gets everything back; an access to memory not attached is an RMA_RANGE error,
-- and detached memory is no longer reachable. Dynamic windows have no direct path on shm
-- (attach takes any memory), so the window asks for "auto" and runs on am.
return {
  ranks = 2,
  -- RMA_RANGE for an access outside the target window is the reference's check: MPI makes
  -- such an access erroneous only, and does not require detecting it (MPI-3.1 §11.2, §8.3;
  -- errors/misuse's disp_past_end checks it on a library, declared impl_defined there). On a
  -- library the erroneous access is not made, so that the case judges the rest.
  setup = function(ctx)
    ctx.win = rma.window{ flavor = "dynamic", path = "auto" }
    ctx.mem = rma.buffer(32, "i64")
    ctx.lo, ctx.hi = ctx.mem:sub(0, 16), ctx.mem:sub(16, 16)
    ctx.addr = ctx.win:attach(ctx.lo)
    ctx.win:attach(ctx.hi)
    -- Tell the left neighbour where my memory is.
    local right, left = (rma.rank + 1) % rma.size, (rma.rank - 1) % rma.size
    local out, into = rma.buffer(1, "i64"):set(0, ctx.addr), rma.buffer(1, "i64")
    if rma.rank % 2 == 0 then rma.send(left, out, 1); rma.recv(right, into, 1)
    else rma.recv(right, into, 1); rma.send(left, out, 1) end
    ctx.peer = into:get(0)
  end,
  run = function(ctx)
    local right = (rma.rank + 1) % rma.size
    ctx.win:lock(right, "exclusive")
    -- 24 elements from element 4: spans the two attached regions.
    ctx.win:put(rma.buffer(24, "i64"):iota(100), right, ctx.peer + 4 * 8)
    ctx.win:flush(right)
    ctx.win:accumulate(rma.buffer(2, "i64"):fill(1000), right, ctx.peer + 20 * 8, "sum")
    -- MPI orders a get with nothing else in its epoch: the flush completes the accumulate
    -- first, so the get reads it (the am path moves gets last, which hid the missing flush;
    -- `--check races` names both lines without it).
    ctx.win:flush(right)
    ctx.back = rma.buffer(32, "i64")
    ctx.win:get(ctx.back, right, ctx.peer)
    ctx.win:unlock(right)
    if rma.backend == "mpi" then return end
    -- Just past the attached memory:
    ctx.win:lock(right, "shared")
    ctx.win:put(rma.buffer(1, "i64"), right, ctx.peer + 32 * 8)
    rma.expect_error("RMA_RANGE", function() ctx.win:unlock(right) end)
    ctx.win:unlock(right)
  end,
  check = function(ctx)
    local want = rma.buffer(32, "i64")
    want:sub(4, 24):iota(100)
    want:sub(20, 2):apply("sum", 1000)
    rma.expect_eq(ctx.back, want, "put across both regions, accumulate, get back")
    rma.expect_eq(ctx.mem, want, "my memory, as my left neighbour wrote it")
  end,
  teardown = function(ctx)
    ctx.win:detach(ctx.hi)
    -- Detaching twice is erroneous too: the reference's check, not made on a library.
    if rma.backend ~= "mpi" then
      rma.expect_error("RMA_ATTACH", function() ctx.win:detach(ctx.hi) end)
    end
    ctx.win:detach(ctx.lo)
    ctx.win:free()
  end,
}
