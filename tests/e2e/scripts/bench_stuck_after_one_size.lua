-- A benchmark sweep that gets stuck after its first size: size 1 is measured as usual (a
-- lock-put-unlock); from the next size on, the recording run of `run` waits in barriers for a
-- minute, rank 0 logging "stuck" first. A target for SIGINT once a row has finished (the test
-- waits for that log line): the row measured before must survive the stop.
return {
  ranks = 2,
  options = { size = {"bytes per put", 1} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
    ctx.buf = rma.buffer(1)
  end,
  run = function(ctx)
    if rma.opt.size > 1 then
      if rma.rank == 0 then rma.log("stuck") end
      local t0 = rma.now()
      while rma.now() - t0 < 60 do rma.barrier() end
      return
    end
    if rma.rank == 0 then
      ctx.win:lock(1, "exclusive")
      ctx.win:put(ctx.buf, 1, 0)
      ctx.win:unlock(1)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
