-- eager_edge: a derived target type whose data is just below, at and just above the eager
-- limit (`delta` bytes from it), for each communication call. On the am path a layout op
-- carries a prefix (the type's id and, the first time, its description) in its packet, so it
-- goes by rendezvous a prefix's length below the limit a contiguous op of the same bytes
-- has: the sizes in between are where the two rules meet (a get_accumulate there once lost
-- its old values: the origin expected them in one packet, the target streamed them). The
-- target type is every other i32 of the window; the origin adds 1 (or puts salt values) and
-- the test checks every element of the window and of the result.
return {
  ranks = 2,
  options = {
    op = {"put, get, accumulate or get_accumulate", "get_accumulate"},
    delta = {"data bytes minus the eager limit (a multiple of 4)", 0},
  },
  setup = function(ctx)
    local limit = rma.eager_limit > 0 and rma.eager_limit or 16384
    ctx.n = (limit + rma.opt.delta) // 4
    ctx.win = rma.window{ size = 8 * ctx.n, disp_unit = 4 }
    ctx.win:local_buffer("i32"):iota(10)
    ctx.res = rma.buffer(ctx.n, "i32"):fill(-1)
  end,
  run = function(ctx)
    local n = ctx.n
    rma.barrier()
    if rma.rank == 0 then
      local t = rma.type_vector(n, 1, 2, "i32")
      local layout = { target_type = t }
      ctx.win:lock(1, "exclusive")
      if rma.opt.op == "put" then
        ctx.win:put(rma.buffer(n, "i32"):iota(-1, -1), 1, 0, layout)
      elseif rma.opt.op == "get" then
        ctx.win:get(ctx.res, 1, 0, layout)
      elseif rma.opt.op == "accumulate" then
        ctx.win:accumulate(rma.buffer(n, "i32"):fill(1), 1, 0, "sum", layout)
      else
        ctx.win:get_accumulate(rma.buffer(n, "i32"):fill(1), ctx.res, 1, 0, "sum", layout)
      end
      ctx.win:unlock(1)
      t:free()
    end
    rma.barrier()
  end,
  check = function(ctx)
    local n, op = ctx.n, rma.opt.op
    if rma.rank == 0 then
      if op ~= "get" and op ~= "get_accumulate" then return end
      for i = 0, n - 1 do
        if not rma.expect_eq(ctx.res:get(i), 10 + 2 * i, "old value " .. i) then return end
      end
    else
      local mem = ctx.win:local_buffer("i32")
      for i = 0, 2 * n - 1 do
        local want = 10 + i
        if i % 2 == 0 then
          if op == "put" then want = -1 - i // 2
          elseif op ~= "get" then want = want + 1 end
        end
        if not rma.expect_eq(mem:get(i), want, "target element " .. i) then return end
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
