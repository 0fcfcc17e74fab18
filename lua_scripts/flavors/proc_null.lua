-- PROC_NULL targets and zero-byte transfers, in every synchronization mode (`sync`: fence,
-- pscw, lock, lock_all). MPI makes every RMA communication call with target MPI_PROC_NULL
-- succeed and do nothing, in any epoch and whatever the start group or locks; a transfer of
-- zero elements to a real target is likewise legal and moves nothing. Here every op kind
-- goes to PROC_NULL (and the value-returning fetch_and_op / compare_and_swap and the
-- request-based ops in passive epochs; in a lock epoch PROC_NULL is also locked, flushed
-- and unlocked, no-ops as in MPICH), and zero-element put, get, accumulate and
-- get_accumulate go to the right neighbour; afterwards no window byte, no get buffer and no
-- result buffer may have changed. Messages (am) are what the synchronization alone costs:
-- nothing for lock and lock_all (no op to carry a lock), E(n) for the closing fence, a post
-- and a done per rank for pscw.
local SENTINEL = 0x5A

local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 2,
  options = { sync = {"fence, pscw, lock or lock_all", "lock"} },
  -- MPI_PROC_NULL is a valid target of the communication calls (MPI-3.1 §11.3), not of
  -- MPI_Win_lock/unlock, whose rank must be one of the window's group (§11.5.3).
  impl_defined = {
    ["sync=lock"] = "MPI_PROC_NULL is a valid target of RMA communication calls only " ..
                    "(MPI-3.1 §11.3); MPI_Win_lock's rank must be in the window's group " ..
                    "(§11.5.3): a lock on MPI_PROC_NULL is the reference's (and MPICH's) extension",
  },
  setup = function(ctx)
    ctx.win = rma.window{ size = 64 }
    ctx.win:local_buffer():fill(SENTINEL)
    ctx.src = rma.buffer(8, "u8"):fill(1)
    ctx.into = rma.buffer(8, "u8"):fill(SENTINEL)
    ctx.res = rma.buffer(8, "u8"):fill(SENTINEL)
    ctx.res64 = rma.buffer(2, "i64"):fill(SENTINEL)
    ctx.none = rma.buffer(0, "u8")
    ctx.none_res = rma.buffer(0, "u8")
  end,
  run = function(ctx)
    local win, sync, N = ctx.win, rma.opt.sync, rma.PROC_NULL
    local right, left = (rma.rank + 1) % rma.size, (rma.rank - 1) % rma.size
    local passive = sync == "lock" or sync == "lock_all"
    if sync == "lock" then win:lock(right, "shared"); win:lock(N, "exclusive")
    elseif sync == "lock_all" then win:lock_all()
    elseif sync == "fence" then win:fence("noprecede")
    elseif sync == "pscw" then win:post({left}); win:start({right})
    else rma.fail("unknown sync '" .. sync .. "'") end

    win:put(ctx.src, N, 0)
    win:get(ctx.into, N, 0)
    win:accumulate(ctx.src, N, 0, "sum")
    win:get_accumulate(ctx.src, ctx.res, N, 0, "sum")
    win:get_accumulate(nil, ctx.res, N, 0, "no_op")
    win:fetch_and_op(1, N, 0, "sum", "i64", ctx.res64:sub(0, 1))
    win:compare_and_swap(0, 1, N, 8, "i64", ctx.res64:sub(1, 1))
    if passive then
      win:fetch_and_op(1, N, 0, "sum", "i64")          -- the value is undefined: not checked
      win:compare_and_swap(0, 1, N, 0, "i64")
      for _, r in ipairs({ win:rput(ctx.src, N, 0), win:rget(ctx.into, N, 0),
                           win:raccumulate(ctx.src, N, 0, "sum"),
                           win:rget_accumulate(ctx.src, ctx.res, N, 0, "sum") }) do
        r:wait()
      end
      win:flush(N)
      win:flush_local(N)
    end
    win:put(ctx.none, right, 0)
    win:get(ctx.none, right, 0)
    win:accumulate(ctx.none, right, 0, "sum")
    win:get_accumulate(ctx.none, ctx.none_res, right, 0, "sum")

    if sync == "lock" then win:unlock(N); win:unlock(right)
    elseif sync == "lock_all" then win:unlock_all()
    elseif sync == "fence" then win:fence("nosucceed")
    else win:complete(); win:wait() end
  end,
  check = function(ctx)
    rma.expect_eq(ctx.win:local_buffer(), rma.buffer(64, "u8"):fill(SENTINEL), "window untouched")
    rma.expect_eq(ctx.into, rma.buffer(8, "u8"):fill(SENTINEL), "get buffer untouched")
    rma.expect_eq(ctx.res, rma.buffer(8, "u8"):fill(SENTINEL), "get_accumulate result untouched")
    rma.expect_eq(ctx.res64, rma.buffer(2, "i64"):fill(SENTINEL), "fetch_and_op / CAS results untouched")
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n, sync = rma.size, rma.opt.sync
    if sync == "fence" then return counts.total(counts.fence({})) end
    if sync == "pscw" and n > 1 then return counts.with_epoch({ done = n }, "pscw", n) end
    return { total = 0 }
  end,
}
