-- Every rank blocks in a barrier loop for a long time: a target for a SIGKILL from outside
-- (the test finds a rank's pid and kills it).
return {
  ranks = 2,
  options = { seconds = {"how long to keep going", 60} },
  run = function(ctx)
    local t0 = rma.now()
    while rma.now() - t0 < rma.opt.seconds do
      rma.barrier()
    end
  end,
}
