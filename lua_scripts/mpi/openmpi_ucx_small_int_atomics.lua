-- Library defect reproducer (docs/conformance-mpi.md): Debian's Open MPI 4.1.4 with osc/ucx:
-- MPI_Fetch_and_op with MPI_SUM, MPI_REPLACE or MPI_NO_OP on an 8- or 16-bit integer returns 0
-- and leaves the target element as it was, without an error; MPI_Compare_and_swap on 8 or 16
-- bits returns the swap value as the old one and swaps nothing (-o kind=compare_and_swap).
-- 32- and 64-bit integers are right, and so are the other ops (bor, min, ...) on 8 and 16 bits:
-- osc/ucx sends exactly these to UCX's hardware atomics, which exist for 32 and 64 bits only;
-- later Open MPI sources check the size before taking that path ("UCX atomics are only
-- supported on 32 and 64 bit values", osc_ucx_comm.c); 4.1.4 behaves as if it did not.
--
--   rmabench run lua_scripts/mpi/openmpi_ucx_small_int_atomics.lua --impl openmpi:osc=ucx    fail: got 0, target still 5
--   ... -o dtype=u8|i16|u16, -o op=replace|no_op, -o kind=compare_and_swap --impl openmpi:osc=ucx   fail
--   ... -o dtype=i32, -o op=bor --impl openmpi:osc=ucx; --impl openmpi:osc=pt2pt; the reference   pass
return {
  ranks = 2,
  options = { dtype = {"i8, u8, i16 or u16", "i8"}, op = {"sum, replace or no_op", "sum"},
              kind = {"fetch_and_op or compare_and_swap", "fetch_and_op"} },
  setup = function(ctx)
    ctx.mem = rma.buffer(2, rma.opt.dtype):fill(0):set(0, 5)
    ctx.win = rma.window{ flavor = "create", memory = ctx.mem }
  end,
  run = function(ctx)
    if rma.rank == 0 then
      local v = 2
      if rma.opt.op == "no_op" then v = nil end
      ctx.win:lock(1, "exclusive")
      if rma.opt.kind == "compare_and_swap" then
        ctx.old = ctx.win:compare_and_swap(5, 2, 1, 0, rma.opt.dtype)
      else
        ctx.old = ctx.win:fetch_and_op(v, 1, 0, rma.opt.op, rma.opt.dtype)
      end
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then rma.expect_eq(ctx.old, 5, rma.opt.kind .. " returned the old value") end
    if rma.rank == 1 then
      local want = rma.opt.op == "no_op" and 5 or rma.oracle(rma.opt.op, rma.opt.dtype, 5, 2)
      if rma.opt.kind == "compare_and_swap" then want = 2 end
      rma.expect_eq(ctx.mem:get(0), want, "the element after the " .. rma.opt.kind)
      rma.expect_eq(ctx.mem:get(1), 0, "the next element untouched")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
