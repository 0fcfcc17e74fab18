-- Rank 0 computes in Lua forever (no library call) while rank 1 waits in a barrier: the
-- deadline is a timeout, not a deadlock, because rank 0 is not blocked in the library.
return {
  ranks = 2,
  run = function(ctx)
    if rma.rank == 0 then
      local x = 0
      while true do x = x + 1 end
    end
  end,
}
