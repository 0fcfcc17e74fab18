-- The baseline the RMA latencies are read against: a raw send/recv round trip between rank
-- 0 and rank 1 on the same backend and provider (rank 0 sends `size` bytes, rank 1 sends
-- them back). No window, no RMA packet. `rmabench bench lua_scripts/bench/pingpong.lua
-- --backend fabric` in the same run as lua_scripts/bench/latency.lua gives the ratio
-- ../docs/benchmarks.md talks about; run as a case it checks that the bytes came back.
return {
  ranks = 2,
  options = { size = {"bytes each way", 8} },
  setup = function(ctx)
    if rma.size < 2 then rma.skip("needs two ranks") end
    ctx.out = rma.buffer(rma.opt.size, "u8"):iota(rma.rank + 1)
    ctx.back = rma.buffer(rma.opt.size, "u8")
  end,
  run = function(ctx)
    if rma.rank == 0 then
      rma.send(1, ctx.out, 7)
      rma.recv(1, ctx.back, 7)
    elseif rma.rank == 1 then
      rma.recv(0, ctx.back, 7)
      rma.send(0, ctx.back, 7)
    end
  end,
  check = function(ctx)
    if rma.rank == 0 then rma.expect_eq(ctx.back, ctx.out, "the bytes came back") end
  end,
  messages = { total = 0 },
}
