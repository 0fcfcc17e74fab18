-- Truly passive target: rank 1 computes for `compute_s` seconds without calling the library
-- while rank 0 does lock-put-unlock. With the asynchronous progress agent the epoch completes
-- while rank 1 is still computing; the case checks exactly that (rank 0's epoch ended before
-- rank 1's computation did) and reports the epoch's duration as a metric (epoch_s).
-- On an MPI library it measures in every progress mode: how long the epoch takes while the
-- target makes no MPI call is exactly what a user wants to see of a library.
return {
  ranks = 2,
  options = { compute_s = {"seconds rank 1 computes", 2.0} },
  impl_defined = "MPI does not require a target that makes no MPI call to progress a passive-target " ..
                 "epoch (the progress rule lets the origin's unlock wait for the target's next call); " ..
                 "epoch_s shows what the library does",
  setup = function(ctx)
    -- Without the agent only shm's direct path completes the epoch: its lock is a word the
    -- origin takes in shared memory. The am path's lock, and the fabric direct path's (a
    -- control message), need the target's engine to answer.
    if rma.backend ~= "mpi" and rma.progress ~= "async" and
       not (rma.backend == "shm" and rma.path == "direct") then
      rma.skip("the target answers while computing only with the agent (--progress async), " ..
               "except on shm's direct path")
    end
    ctx.win = rma.window{ size = 64 }
    ctx.data = rma.buffer(8, "u8"):fill(42)
    ctx.stamp = rma.buffer(2, "f64")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      local t0 = rma.now()
      ctx.win:lock(1, "exclusive")
      ctx.win:put(ctx.data, 1, 0)
      ctx.win:unlock(1)
      local t1 = rma.now()
      rma.metric("epoch_s", t1 - t0)
      ctx.stamp:set(0, t1)
    else
      local t0, x = rma.now(), 0
      while rma.now() - t0 < rma.opt.compute_s do x = x + 1 end
      ctx.stamp:set(1, rma.now())
    end
  end,
  check = function(ctx)
    -- Rank 0 tells rank 1 when its epoch ended; rank 1 compares with its own end of compute.
    if rma.rank == 0 then
      rma.send(1, ctx.stamp, 1)
    else
      local theirs = rma.buffer(2, "f64")
      rma.recv(0, theirs, 1)
      rma.expect(theirs:get(0) < ctx.stamp:get(1),
                 "the origin's epoch completed while the target was still computing")
      rma.expect_eq(ctx.win:local_buffer():sub(0, 8), ctx.data, "the put arrived")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 2, put = 1, ack = 1 },
}
