-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with osc/pt2pt
-- applies fetch_and_ops from one origin to one location out of order once many are in flight:
-- rank 0 issues `count` MPI_Fetch_and_op(MPI_SUM, 1) with result buffers on one 64-bit integer
-- of rank 1 in one lock epoch. MPI orders accumulate calls from one origin to one location
-- (accumulate_ordering's default), so fetch i must return i; on pt2pt fetch 1 returns a value
-- from far later (87 of 256 here, 831 of 1000): that op was applied after most later ones.
-- The target queues an op that finds its accumulate lock busy
-- (ompi_osc_pt2pt_acc_op_queue, osc_pt2pt_data_move.c), and that function, before appending
-- the op to the pending list, waits for the same lock by calling the progress engine, where
-- the previous op's completion frees the lock and a later op that arrives takes it at once
-- (process_get_acc's trylock): later ops overtake the queued one (read from the source, not
-- traced at run time). Fails in 10 of 10 runs here; 64 fetches pass, 200 fail, under fence
-- too. The conformance case atomics/fetch_and_op_ops (form=buffer) shows it as a stale
-- second fetch (lxor i16 element 3).
--
--   rmabench run lua_scripts/mpi/openmpi_pt2pt_fetch_and_op_out_of_order.lua --impl openmpi:osc=pt2pt   fail: fetch 1 got 87
--   ... -o count=64 --impl openmpi:osc=pt2pt; --impl openmpi (rdma); --impl mpich; the reference          pass
return {
  ranks = 2,
  options = { count = {"fetch_and_ops in the epoch", 256} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 16 }  -- 16: not MPICH's defect 1 (8-byte sizes)
    ctx.win:local_buffer("i64"):fill(0)
    ctx.res = rma.buffer(rma.opt.count, "i64")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      for i = 0, rma.opt.count - 1 do
        ctx.win:fetch_and_op(1, 1, 0, "sum", "i64", ctx.res:sub(i, 1))
      end
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then
      -- The first fetch that is out of order (one failure, not hundreds).
      for i = 0, rma.opt.count - 1 do
        if ctx.res:get(i) ~= i then
          rma.expect_eq(ctx.res:get(i), i, "fetch " .. i .. " (in issue order)")
          break
        end
      end
    end
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer("i64"):get(0), rma.opt.count, "every sum applied")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
