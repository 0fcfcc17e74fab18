-- test1_dt: a port of MPICH's test/mpi/rma/test1_dt.c ("test1 with derived datatypes to
-- receive data"). Two ranks, arrays A and B of `size` i32, the window over B. In one fence
-- epoch rank 0 puts A two ints at a time into rank 1's B, and rank 1 gets rank 0's B two
-- ints at a time into its A and accumulates (sum) its last two ints of A into rank 0's B —
-- each target side one contiguous type of 2 ints, each origin 2 plain ints. Then rank 1's
-- A and B must both hold i in element i (below size - 2), and rank 0's last B element
-- (size-1) + -3·(size-1) (MPICH's checks); also rank 0's B[size-2], and the elements no op
-- touched (rank 1's last two of A and B) keep their values.
local tm = require("typemap")  -- the model of the contiguous type

return {
  ranks = 2,
  options = { size = {"ints per array (even)", 100} },
  setup = function(ctx)
    local n = rma.opt.size
    ctx.a, ctx.b = rma.buffer(n, "i32"), rma.buffer(n, "i32")
    for i = 0, n - 1 do
      if rma.rank == 0 then ctx.a:set(i, i); ctx.b:set(i, i)
      else ctx.a:set(i, -3 * i); ctx.b:set(i, -4 * i) end
    end
    ctx.win = rma.window{ flavor = "create", memory = ctx.b, disp_unit = 4, path = "auto" }
  end,
  run = function(ctx)
    local n = rma.opt.size
    local two = rma.type_contiguous(2, "i32")
    tm.expect_type(two, tm.contiguous(2, "i32"), "contig_2ints")
    ctx.win:fence()
    if rma.rank == 0 then
      for i = 0, n - 3, 2 do ctx.win:put(ctx.a:sub(i, 2), 1, i, { target_type = two }) end
    elseif rma.rank == 1 then
      for i = 0, n - 3, 2 do ctx.win:get(ctx.a:sub(i, 2), 0, i, { target_type = two }) end
      ctx.win:accumulate(ctx.a:sub(n - 2, 2), 0, n - 2, "sum", { target_type = two })
    end
    two:free()
    ctx.win:fence()
  end,
  check = function(ctx)
    local n = rma.opt.size
    if rma.rank == 1 then
      for i = 0, n - 3 do
        rma.expect_eq(ctx.a:get(i), i, "A[" .. i .. "] (get)")
        rma.expect_eq(ctx.b:get(i), i, "B[" .. i .. "] (put)")
      end
      for i = n - 2, n - 1 do
        rma.expect_eq(ctx.a:get(i), -3 * i, "A[" .. i .. "] untouched")
        rma.expect_eq(ctx.b:get(i), -4 * i, "B[" .. i .. "] untouched")
      end
    elseif rma.rank == 0 then
      for i = n - 2, n - 1 do
        rma.expect_eq(ctx.b:get(i), i + -3 * i, "B[" .. i .. "] (accumulate)")
      end
      for i = 0, n - 3 do rma.expect_eq(ctx.b:get(i), i, "B[" .. i .. "] untouched") end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
