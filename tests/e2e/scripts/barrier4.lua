-- Four ranks and a few barriers: run 100 times in a row by the tests to show that nothing
-- is left behind (processes, shared memory).
return {
  ranks = 4,
  run = function(ctx)
    for _ = 1, 5 do rma.barrier() end
  end,
}
