-- Two lock-put-unlock epochs whose put lands as a vector (every other i64 of the target):
-- on the am path each costs the packets of the contiguous put of the same bytes (the put
-- carrying lock and unlock, its ack), and only the first sends the type's description.
-- `layout=contiguous` runs the same epochs without a layout, for comparison.
return {
  ranks = 2,
  options = { layout = {"vector | contiguous", "vector"} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 * 8 }
    ctx.data = rma.buffer(16, "i64"):iota(1)
    ctx.layout = rma.opt.layout == "vector" and { target_type = rma.type_vector(16, 1, 2, "i64") }
                 or nil
  end,
  run = function(ctx)
    if rma.rank ~= 0 then return end
    for _ = 1, 2 do
      ctx.win:lock(1)
      ctx.win:put(ctx.data, 1, 0, ctx.layout)
      ctx.win:unlock(1)
    end
  end,
  check = function(ctx)
    if rma.rank ~= 1 then return end
    local mem = ctx.win:local_buffer("i64")
    local stride = rma.opt.layout == "vector" and 2 or 1
    for i = 0, 15 do rma.expect(mem:get(i * stride) == i + 1, "element " .. i) end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = { total = 4, put = 2, ack = 2 },
}
