-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with osc/pt2pt:
-- an origin that holds locks on two targets (1 and 2), gets from target 2 and then unlocks
-- target 1 first blocks in MPI_Win_unlock(1) forever, while both targets wait in a barrier
-- (inside MPI, so pt2pt's progress runs there). MPI lets an origin hold passive-target epochs
-- on several targets at once and close them in any order. Unlocking 2 first, or putting to
-- target 2 instead of getting, passes; shared or exclusive locks alike. Found by
-- random/programs (seed 20261123, program 2 at np=4).
--
--   rmabench run lua_scripts/mpi/openmpi_pt2pt_unlock_hangs_on_other_target_get.lua \
--     --impl openmpi:osc=pt2pt --timeout 10                     deadlock: rank 0 in MPI_Win_unlock(target 1)
--   ... -o order=21 --impl openmpi:osc=pt2pt; --impl openmpi (rdma); --impl mpich; the reference   pass
return {
  ranks = 3,
  options = { lock = {"shared or exclusive", "shared"}, order = {"unlock order: 12 or 21", "12"} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
    ctx.win:local_buffer("i64"):fill(rma.rank + 10)
    ctx.into = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      ctx.win:lock(1, rma.opt.lock)
      ctx.win:lock(2, rma.opt.lock)
      ctx.win:get(ctx.into, 2, 0)
      if rma.opt.order == "12" then
        ctx.win:unlock(1)
        ctx.win:unlock(2)
      else
        ctx.win:unlock(2)
        ctx.win:unlock(1)
      end
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then rma.expect_eq(ctx.into:get(0), 12, "the get read rank 2's window") end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
