-- hello: every rank sees its rank and the job size, passes three barriers, and passes a
-- message around a ring with send/recv. Each message carries the sender's rank and the size
-- it sees, so every rank checks its neighbour's view against its own: ranks are distinct,
-- consecutive, and agree on the size. The smallest check that the launcher, the control
-- channels, the bootstrap and the point-to-point channel all work.
return {
  ranks = 4,
  options = { bytes = {"bytes per ring message", 64} },
  -- On one rank the ring is a send to oneself before the receive: safe only where the
  -- send is buffered, which MPI allows but does not guarantee (MPI-3.1 §3.5).
  impl_defined = {
    ["np=1"] = "on one rank the ring sends to itself before receiving: that completes only " ..
               "if the standard-mode send is buffered, which MPI leaves to the implementation " ..
               "(MPI-3.1 §3.5, safe programs)",
  },

  setup = function(ctx)
    rma.expect(rma.rank >= 0 and rma.rank < rma.size, "rank is within 0..size-1")
    ctx.out = rma.buffer(rma.opt.bytes, "u8"):fill(rma.rank % 251 + 1)
    ctx.into = rma.buffer(rma.opt.bytes, "u8")
    ctx.id_out = rma.buffer(2, "i64"):set(0, rma.rank):set(1, rma.size)
    ctx.id_in = rma.buffer(2, "i64")
  end,

  run = function(ctx)
    for _ = 1, 3 do rma.barrier() end
    local right = (rma.rank + 1) % rma.size
    local left = (rma.rank - 1 + rma.size) % rma.size
    -- Even ranks send first, odd ranks receive first: no rank waits on a send that cannot
    -- complete (the eager limit would make it safe anyway, but the pattern should not rely
    -- on it).
    if rma.rank % 2 == 0 then
      rma.send(right, ctx.id_out, 6)
      rma.send(right, ctx.out, 7)
      rma.recv(left, ctx.id_in, 6)
      ctx.got = rma.recv(left, ctx.into, 7)
    else
      rma.recv(left, ctx.id_in, 6)
      ctx.got = rma.recv(left, ctx.into, 7)
      rma.send(right, ctx.id_out, 6)
      rma.send(right, ctx.out, 7)
    end
  end,

  check = function(ctx)
    local left = (rma.rank - 1 + rma.size) % rma.size
    rma.expect_eq(ctx.id_in:get(0), left, "the left neighbour has the rank before mine")
    rma.expect_eq(ctx.id_in:get(1), rma.size, "the left neighbour sees the same size")
    rma.expect_eq(ctx.got, rma.opt.bytes, "whole message received")
    local want = rma.buffer(rma.opt.bytes, "u8"):fill(left % 251 + 1)
    rma.expect_eq(ctx.into, want, "message came from the left neighbour")
  end,
}
