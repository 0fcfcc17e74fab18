-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with osc/pt2pt:
-- under MPI_Win_lock_all, an origin that has a get (or get_accumulate) pending at targets 1
-- and 2 blocks in MPI_Win_flush_local(1) forever, while both targets wait in a barrier
-- (inside MPI, where pt2pt progresses). flush_local(1) sends only target 1's buffered
-- requests, then waits until nothing is outgoing from the whole window, and the reply
-- pt2pt counts as outgoing for target 2's get never comes: its request is still buffered.
-- (ompi_osc_pt2pt_flush_local in ompi/mca/osc/pt2pt/osc_pt2pt_passive_target.c, v4.1.4,
-- waits for the module's outgoing_frag_count; defect 8 is the same wait reached from
-- MPI_Win_unlock.) An accumulate instead of the get, flush_local_all, flush, 2 ranks (one
-- target), osc/rdma, osc/ucx, MPICH and the reference pass. Found by the derived-datatype
-- suite's lockall_dt_flushlocal at np=4; also reproduced in C with MPI_INT gets.
--
--   rmabench run lua_scripts/mpi/openmpi_pt2pt_flush_local_waits_for_other_targets.lua \
--     --impl openmpi:osc=pt2pt --timeout 10          deadlock: rank 0 in MPI_Win_flush_local (target 1)
--   ... -o call=get_accumulate                        the same
--   ... -o call=accumulate, -o flush=flush_local_all, -o flush=flush --impl openmpi:osc=pt2pt   pass
--   ... --impl openmpi:osc=rdma, --impl openmpi:osc=ucx, --impl mpich, the reference           pass
return {
  ranks = 3,
  options = {
    call = {"get, get_accumulate (replace) or accumulate (replace) to every target", "get"},
    flush = {"flush_local (target 1, then the others), flush_local_all or flush", "flush_local"},
  },
  setup = function(ctx)
    -- MPI_Win_create: MPICH's allocated windows have a defect of their own (defect 1)
    ctx.win = rma.window{ size = 8, flavor = "create" }
    ctx.win:local_buffer("i64"):fill(rma.rank + 10)
    ctx.into = {}
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock_all()
      for t = 1, rma.size - 1 do
        ctx.into[t] = rma.buffer(1, "i64"):fill(-1)
        if rma.opt.call == "get" then
          ctx.win:get(ctx.into[t], t, 0)
        elseif rma.opt.call == "get_accumulate" then
          ctx.win:get_accumulate(rma.buffer(1, "i64"):fill(t), ctx.into[t], t, 0, "replace")
        else
          ctx.win:accumulate(rma.buffer(1, "i64"):fill(t), t, 0, "replace")
        end
      end
      if rma.opt.flush == "flush_local_all" then ctx.win:flush_local_all()
      else for t = 1, rma.size - 1 do ctx.win[rma.opt.flush](ctx.win, t) end end
      ctx.win:unlock_all()
    end
    rma.barrier()
  end,
  check = function(ctx)
    if rma.rank == 0 then
      if rma.opt.call == "accumulate" then return end
      for t = 1, rma.size - 1 do rma.expect_eq(ctx.into[t]:get(0), t + 10, "old value from " .. t) end
    else
      local want = rma.opt.call == "get" and rma.rank + 10 or rma.rank
      rma.expect_eq(ctx.win:local_buffer("i64"):get(0), want, "this target's element")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
