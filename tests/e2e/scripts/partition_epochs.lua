-- Two ranks keep opening and closing epochs on each other (lock-put-unlock, then a fence)
-- until the link between them goes down (the test takes a veth down from outside). The wait
-- that finds the peer gone must end with PROC_FAILED naming it; each rank fails the case with
-- that error and how long it went without finishing an epoch (an upper bound on how long the
-- wait took to return), which the test reads from the metric `stall_s`.
return {
  ranks = 2,
  options = {
    seconds = {"how long to keep going without a partition", 60},
    ready = {"a file rank 0 creates once epochs flow (the test then cuts the link)", ""},
  },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 * rma.size }
    ctx.buf = rma.buffer(1, "i64")
  end,
  run = function(ctx)
    local right = (rma.rank + 1) % rma.size
    local t0 = rma.now()
    local last = t0
    local epochs = 0
    local ok, err = pcall(function()
      while rma.now() - t0 < rma.opt.seconds do
        ctx.win:lock(right, "exclusive")
        ctx.win:put(ctx.buf, right, rma.rank)
        ctx.win:unlock(right)
        ctx.win:fence()
        ctx.win:put(ctx.buf, right, rma.rank)
        ctx.win:fence()
        last = rma.now()
        epochs = epochs + 1
        if epochs == 20 and rma.rank == 0 and rma.opt.ready ~= "" then
          local f = assert(io.open(rma.opt.ready, "w"))
          f:close()
        end
      end
    end)
    if not ok then
      local stall = rma.now() - last
      rma.metric("stall_s", stall)
      local what = type(err) == "table" and (err.class .. " in " .. tostring(err.op) .. ": " ..
                                              err.message) or tostring(err)
      rma.fail(string.format("%s [stalled %.2f s]", what, stall))
    end
  end,
}
