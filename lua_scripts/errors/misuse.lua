-- Misuse of the RMA API, each committed on purpose and expected to fail with MPI's error
-- class, the window staying usable afterwards. Option `misuse` picks one (the suite runs
-- each as its own case); "all" commits every one in turn.
local M = {}
local order = {}
local function misuse(name, def) M[name] = def; order[#order + 1] = name end

misuse("op_outside_epoch", { class = "RMA_SYNC", origin = function(ctx)
  rma.expect_error("RMA_SYNC", function() ctx.win:put(ctx.buf, 1, 0) end)
end })

misuse("unlock_without_lock", { class = "RMA_SYNC", origin = function(ctx)
  rma.expect_error("RMA_SYNC", function() ctx.win:unlock(1) end)
end })

misuse("lock_twice", { origin = function(ctx)
  ctx.win:lock(1, "shared")
  rma.expect_error("RMA_SYNC", function() ctx.win:lock(1, "exclusive") end)
  ctx.win:unlock(1)
end })

misuse("lock_inside_start", {
  origin = function(ctx)
    ctx.win:start({1}, "nocheck")
    rma.expect_error("RMA_SYNC", function() ctx.win:lock(1, "shared") end)
    ctx.win:complete()
  end,
  target = function(ctx) ctx.win:post({0}, "nocheck"); ctx.win:wait() end,
})

misuse("op_after_lock_unlock_in_fence", {
  all = function(ctx)
    ctx.win:fence()
    if rma.rank == 0 then
      ctx.win:lock(1, "shared")
      ctx.win:unlock(1)
      rma.expect_error("RMA_SYNC", function() ctx.win:put(ctx.buf, 1, 0) end)
    end
    ctx.win:fence("nosucceed")
  end,
})

misuse("start_inside_start", {
  origin = function(ctx)
    ctx.win:start({1}, "nocheck")
    rma.expect_error("RMA_SYNC", function() ctx.win:start({1}) end)
    ctx.win:complete()
  end,
  target = function(ctx) ctx.win:post({0}, "nocheck"); ctx.win:wait() end,
})

misuse("complete_without_start", { origin = function(ctx)
  rma.expect_error("RMA_SYNC", function() ctx.win:complete() end)
end })

misuse("wait_without_post", { origin = function(ctx)
  rma.expect_error("RMA_SYNC", function() ctx.win:wait() end)
end })

misuse("free_while_locked", { origin = function(ctx)
  ctx.win:lock(1, "exclusive")
  rma.expect_error("RMA_SYNC", function() ctx.win:free() end)
  ctx.win:unlock(1)
end })

misuse("free_inside_pscw", {
  origin = function(ctx)
    ctx.win:start({1}, "nocheck")
    rma.expect_error("RMA_SYNC", function() ctx.win:free() end)
    ctx.win:complete()
  end,
  target = function(ctx) ctx.win:post({0}, "nocheck"); ctx.win:wait() end,
})

misuse("cas_on_float", { origin = function(ctx)
  ctx.win:lock(1, "shared")
  rma.expect_error("TYPE", function() ctx.win:compare_and_swap(0.0, 1.0, 1, 0, "f64") end)
  ctx.win:unlock(1)
end })

misuse("disp_past_end", { origin = function(ctx)
  ctx.win:lock(1, "shared")
  rma.expect_error("RMA_RANGE", function() ctx.win:put(ctx.buf, 1, ctx.size) end)
  rma.expect_error("RMA_RANGE", function() ctx.win:put(ctx.buf, 1, ctx.size - 4) end)
  ctx.win:unlock(1)
end })

misuse("unknown_op", { origin = function(ctx)
  ctx.win:lock(1, "shared")
  rma.expect_error("OP", function() ctx.win:accumulate(ctx.buf, 1, 0, "frobnicate") end)
  rma.expect_error("OP", function() ctx.win:accumulate(rma.buffer(1, "f64"), 1, 0, "bxor") end)
  ctx.win:unlock(1)
end })

misuse("unknown_dtype", { origin = function(ctx)
  rma.expect_error("TYPE", function() rma.buffer(4, "i128") end)
  ctx.win:lock(1, "shared")
  rma.expect_error("TYPE", function() ctx.win:fetch_and_op(1, 1, 0, "sum", "q7") end)
  ctx.win:unlock(1)
end })

misuse("bad_lock_type", { origin = function(ctx)
  rma.expect_error("LOCKTYPE", function() ctx.win:lock(1, "sometimes") end)
end })

misuse("bad_assert", { origin = function(ctx)
  rma.expect_error("ASSERT", function() ctx.win:lock(1, "shared", "noput") end)
  rma.expect_error("ASSERT", function() ctx.win:fence("sometimes") end)
end })

misuse("bad_rank", { origin = function(ctx)
  ctx.win:lock_all()
  rma.expect_error("RANK", function() ctx.win:put(ctx.buf, rma.size, 0) end)
  rma.expect_error("RANK", function() ctx.win:put(ctx.buf, -7, 0) end)
  ctx.win:unlock_all()
end })

misuse("flush_without_lock", { origin = function(ctx)
  rma.expect_error("RMA_SYNC", function() ctx.win:flush(1) end)
end })

misuse("lock_on_no_locks_window", { all = function(ctx)
  local w = rma.window{ size = 8, info = { no_locks = true } }
  if rma.rank == 0 then
    rma.expect_error("RMA_SYNC", function() w:lock(1, "shared") end)
    rma.expect_error("RMA_SYNC", function() w:lock_all() end)
  end
  w:free()
end })

misuse("op_on_freed_window", { all = function(ctx)
  local w = rma.window{ size = 8 }
  w:free()
  rma.expect_error("WIN", function() w:lock_all() end)
end })

local function commit(ctx, name)
  local m = M[name]
  if m.all then m.all(ctx)
  elseif rma.rank == 0 and m.origin then m.origin(ctx)
  elseif rma.rank == 1 and m.target then m.target(ctx) end
  rma.barrier()
end

return {
  name = "misuse",
  ranks = 2,
  options = { misuse = {"which misuse to commit; all: every one in turn", "all"} },
  setup = function(ctx)
    if rma.opt.misuse ~= "all" and not M[rma.opt.misuse] then
      rma.fail("unknown misuse '" .. rma.opt.misuse .. "'")
    end
    ctx.size = 64
    ctx.win = rma.window{ size = ctx.size }
    ctx.buf = rma.buffer(8, "u8"):fill(1)
  end,
  run = function(ctx)
    if rma.opt.misuse == "all" then
      for _, name in ipairs(order) do commit(ctx, name) end
    else
      commit(ctx, rma.opt.misuse)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  misuses = order,
}
