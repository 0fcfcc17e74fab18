-- The epoch a pattern's `sync` option names (lock, lock_all, fence or pscw), opened and closed
-- around the ops the pattern issues to one target, for patterns that check the same ops
-- under every synchronization; `require("epoch")`.
local epoch = {}

-- The `sync` option these patterns declare: `sync = epoch.option()` in a case table's options.
function epoch.option() return {"lock, lock_all, fence or pscw", "lock"} end

-- Opens an access epoch toward `target`: `lock_type` ("exclusive" or "shared") for lock;
-- fence with noprecede (nothing before it to close); for pscw this rank first posts to the
-- origins in `exposed_to` (a list of ranks, or nil when it exposes its window to nobody).
function epoch.open(win, sync, target, lock_type, exposed_to)
  if sync == "lock" then win:lock(target, lock_type)
  elseif sync == "lock_all" then win:lock_all()
  elseif sync == "fence" then win:fence("noprecede")
  elseif sync == "pscw" then
    if exposed_to then win:post(exposed_to) end
    win:start({target})
  else rma.fail("unknown sync '" .. sync .. "'") end
end

-- Closes what epoch.open opened: fence with nosucceed (nothing after it); for pscw, complete
-- and, when this rank posted (`exposed`), wait for its origins.
function epoch.close(win, sync, target, exposed)
  if sync == "lock" then win:unlock(target)
  elseif sync == "lock_all" then win:unlock_all()
  elseif sync == "fence" then win:fence("nosucceed")
  else
    win:complete()
    if exposed then win:wait() end
  end
end

-- The ring form of the two: every rank is an origin for its right neighbour and, under pscw,
-- exposes its window to its left one; an exclusive lock for lock. Returns the right neighbour.
function epoch.open_ring(win, sync)
  local right, left = (rma.rank + 1) % rma.size, (rma.rank - 1) % rma.size
  epoch.open(win, sync, right, "exclusive", {left})
  return right
end

function epoch.close_ring(win, sync)
  epoch.close(win, sync, (rma.rank + 1) % rma.size, true)
end

return epoch
