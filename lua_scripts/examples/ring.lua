-- ring: each rank sends a buffer to its right neighbour and receives one from its left,
-- with even ranks sending first so that no rank waits on a send that cannot complete.
-- Point-to-point only: no window, no epoch.
return {
  ranks = 4,
  options = { bytes = {"bytes per message", 64} },
  setup = function(ctx)
    ctx.out = rma.buffer(rma.opt.bytes, "u8"):fill(rma.rank)
    ctx.into = rma.buffer(rma.opt.bytes, "u8")
  end,
  run = function(ctx)
    local right, left = (rma.rank + 1) % rma.size, (rma.rank - 1) % rma.size
    if rma.rank % 2 == 0 then
      rma.send(right, ctx.out); rma.recv(left, ctx.into)
    else
      rma.recv(left, ctx.into); rma.send(right, ctx.out)
    end
  end,
  check = function(ctx)
    local left = (rma.rank - 1) % rma.size
    rma.expect_eq(ctx.into, rma.buffer(rma.opt.bytes, "u8"):fill(left), "data from the left")
  end,
}
