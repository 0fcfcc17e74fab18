-- Misuse of the RMA API, each committed on purpose and expected to fail with MPI's error
-- class (RMA_SYNC for a call in the wrong epoch, RMA_RANGE, RMA_ATTACH, RMA_FLAVOR, ARG,
-- RANK, OP, TYPE, ASSERT, LOCKTYPE, DISP, SIZE, INFO, WIN), before anything changed: every
-- misuse is followed by the correct calls that close what it left open, and after all of
-- them the window still carries a fence epoch whose put arrives (checked in `check`). MPI
-- leaves the outcome of an erroneous program undefined; an implementation that reports
-- these errors instead of crashing or corrupting state is what rmabench holds the
-- reference to. Option `misuse` picks one (the suite runs each as its own case); "all"
-- commits every one in turn.
local M = {}
local order = {}
local function misuse(name, def) M[name] = def; order[#order + 1] = name end

-- A post/start pair with nocheck, as MPI requires it: nocheck promises that the post has
-- completed before the start is called, so the target tells the origin after posting.
local note = nil
local function start_nocheck(ctx, target)
  note = note or rma.buffer(1)
  rma.recv(target, note, 77)
  ctx.win:start({target}, "nocheck")
end
local function post_nocheck(ctx, origin)
  note = note or rma.buffer(1)
  ctx.win:post({origin}, "nocheck")
  rma.send(origin, note, 77)
end

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
    start_nocheck(ctx, 1)
    rma.expect_error("RMA_SYNC", function() ctx.win:lock(1, "shared") end)
    ctx.win:complete()
  end,
  target = function(ctx) post_nocheck(ctx, 0); ctx.win:wait() end,
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
    start_nocheck(ctx, 1)
    rma.expect_error("RMA_SYNC", function() ctx.win:start({1}) end)
    ctx.win:complete()
  end,
  target = function(ctx) post_nocheck(ctx, 0); ctx.win:wait() end,
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
    start_nocheck(ctx, 1)
    rma.expect_error("RMA_SYNC", function() ctx.win:free() end)
    ctx.win:complete()
  end,
  target = function(ctx) post_nocheck(ctx, 0); ctx.win:wait() end,
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

misuse("lock_all_twice", { origin = function(ctx)
  ctx.win:lock_all()
  rma.expect_error("RMA_SYNC", function() ctx.win:lock_all() end)
  ctx.win:unlock_all()
end })

misuse("unlock_all_without_lock_all", { origin = function(ctx)
  rma.expect_error("RMA_SYNC", function() ctx.win:unlock_all() end)
  ctx.win:lock(1, "shared")
  rma.expect_error("RMA_SYNC", function() ctx.win:unlock_all() end)
  ctx.win:unlock(1)
end })

misuse("lock_inside_lock_all", { origin = function(ctx)
  ctx.win:lock_all()
  rma.expect_error("RMA_SYNC", function() ctx.win:lock(1, "shared") end)
  rma.expect_error("RMA_SYNC", function() ctx.win:unlock(1) end)
  ctx.win:unlock_all()
end })

misuse("lock_all_inside_lock", { origin = function(ctx)
  ctx.win:lock(1, "shared")
  rma.expect_error("RMA_SYNC", function() ctx.win:lock_all() end)
  ctx.win:unlock(1)
end })

misuse("op_to_unlocked_target", { origin = function(ctx)
  ctx.win:lock(1, "shared")
  rma.expect_error("RMA_SYNC", function() ctx.win:put(ctx.buf, 0, 0) end)
  rma.expect_error("RMA_SYNC", function() ctx.win:flush(0) end)
  ctx.win:unlock(1)
end })

misuse("op_after_unlock", { origin = function(ctx)
  ctx.win:lock(1, "shared")
  ctx.win:put(ctx.buf, 1, 0)
  ctx.win:unlock(1)
  rma.expect_error("RMA_SYNC", function() ctx.win:put(ctx.buf, 1, 0) end)
  ctx.win:lock_all()
  ctx.win:unlock_all()
  rma.expect_error("RMA_SYNC", function() ctx.win:get(ctx.buf, 1, 0) end)
end })

misuse("target_not_in_start_group", {
  origin = function(ctx)
    start_nocheck(ctx, 1)
    rma.expect_error("RMA_SYNC", function() ctx.win:put(ctx.buf, 0, 0) end)
    ctx.win:complete()
  end,
  target = function(ctx) post_nocheck(ctx, 0); ctx.win:wait() end,
})

misuse("op_after_complete", {
  origin = function(ctx)
    start_nocheck(ctx, 1)
    ctx.win:complete()
    rma.expect_error("RMA_SYNC", function() ctx.win:put(ctx.buf, 1, 0) end)
  end,
  target = function(ctx) post_nocheck(ctx, 0); ctx.win:wait() end,
})

misuse("post_twice", { origin = function(ctx)
  post_nocheck(ctx, 1)
  rma.expect_error("RMA_SYNC", function() ctx.win:post({1}) end)
  rma.expect_error("RMA_SYNC", function() ctx.win:fence() end)
  ctx.win:wait()
end, target = function(ctx)
  start_nocheck(ctx, 0)
  ctx.win:complete()
end })

misuse("fence_inside_passive_epoch", { origin = function(ctx)
  ctx.win:lock(1, "shared")
  rma.expect_error("RMA_SYNC", function() ctx.win:fence() end)
  ctx.win:unlock(1)
  ctx.win:lock_all()
  rma.expect_error("RMA_SYNC", function() ctx.win:fence() end)
  ctx.win:unlock_all()
end })

misuse("start_inside_fence_epoch", {
  all = function(ctx)
    ctx.win:fence()
    if rma.rank == 0 then
      ctx.win:put(ctx.buf, 1, 0)
      rma.expect_error("RMA_SYNC", function() ctx.win:start({1}) end)
      rma.expect_error("RMA_SYNC", function() ctx.win:lock(1, "shared") end)
      rma.expect_error("RMA_SYNC", function() ctx.win:free() end)
    end
    ctx.win:fence("nosucceed")
  end,
})

misuse("noprecede_with_pending_ops", {
  all = function(ctx)
    ctx.win:fence()
    if rma.rank == 0 then
      ctx.win:put(ctx.buf, 1, 0)
      rma.expect_error("RMA_SYNC", function() ctx.win:fence("noprecede") end)
    end
    ctx.win:fence("nosucceed")
  end,
})

misuse("request_op_outside_passive_epoch", {
  all = function(ctx)
    ctx.win:fence()
    if rma.rank == 0 then
      rma.expect_error("RMA_SYNC", function() ctx.win:rput(ctx.buf, 1, 0) end)
      rma.expect_error("RMA_SYNC", function() ctx.win:rget(ctx.buf, 1, 0) end)
    end
    ctx.win:fence("nosucceed")
  end,
})

misuse("fetch_value_outside_passive_epoch", {
  all = function(ctx)
    ctx.win:fence()
    if rma.rank == 0 then
      rma.expect_error("RMA_SYNC", function() ctx.win:fetch_and_op(1, 1, 0, "sum", "i64") end)
      rma.expect_error("RMA_SYNC", function() ctx.win:compare_and_swap(0, 1, 1, 0, "i64") end)
    end
    ctx.win:fence("nosucceed")
  end,
})

misuse("bad_group", { origin = function(ctx)
  rma.expect_error("ARG", function() ctx.win:start({1, 1}) end)
  rma.expect_error("RANK", function() ctx.win:post({rma.size}) end)
  rma.expect_error("RANK", function() ctx.win:start({rma.PROC_NULL}) end)
end })

misuse("assert_not_for_this_call", { origin = function(ctx)
  rma.expect_error("ASSERT", function() ctx.win:start({1}, "noput") end)
  rma.expect_error("ASSERT", function() ctx.win:post({1}, "noprecede") end)
  rma.expect_error("ASSERT", function() ctx.win:lock_all("nostore") end)
  rma.expect_error("ASSERT", function() ctx.win:fence("nocheck") end)
end })

misuse("get_accumulate_buffers_differ", { origin = function(ctx)
  ctx.win:lock(1, "shared")
  rma.expect_error("ARG", function()
    ctx.win:get_accumulate(rma.buffer(2, "i32"), rma.buffer(2, "i64"), 1, 0, "sum")
  end)
  rma.expect_error("ARG", function()
    ctx.win:get_accumulate(rma.buffer(2, "i64"), rma.buffer(3, "i64"), 1, 0, "sum")
  end)
  ctx.win:unlock(1)
end })

misuse("attach_to_non_dynamic_window", { origin = function(ctx)
  rma.expect_error("RMA_FLAVOR", function() ctx.win:attach(rma.buffer(8)) end)
  rma.expect_error("RMA_FLAVOR", function() ctx.win:detach(rma.buffer(8)) end)
end })

misuse("attach_detach_mistakes", { all = function(ctx)
  local w = rma.window{ flavor = "dynamic", path = "auto" }
  local mem = rma.buffer(64)
  w:attach(mem:sub(0, 32))
  rma.expect_error("RMA_ATTACH", function() w:attach(mem:sub(16, 32)) end)  -- overlaps
  rma.expect_error("RMA_ATTACH", function() w:detach(mem:sub(32, 32)) end)  -- never attached
  w:detach(mem:sub(0, 32))
  rma.expect_error("RMA_ATTACH", function() w:detach(mem:sub(0, 32)) end)   -- twice
  w:free()
end })

misuse("shared_query_of_unmapped_memory", { all = function(ctx)
  local w = rma.window{ size = 8, path = "am" }
  rma.expect_eq(w:shared_query(rma.rank):count(), 8, "my own memory is always there")
  rma.expect_error("RMA_FLAVOR", function() w:shared_query(1 - rma.rank) end)
  w:free()
end })

misuse("bad_window_arguments", { all = function(ctx)
  rma.expect_error("DISP", function() rma.window{ size = 8, disp_unit = 0 } end)
  rma.expect_error("SIZE", function() rma.window{ size = -8 } end)
  rma.expect_error("RMA_FLAVOR", function() rma.window{ size = 8, flavor = "borrowed" } end)
  rma.expect_error("INFO", function() rma.window{ size = 8, info = { no_locks = "maybe" } } end)
  rma.expect_error("INFO", function() rma.window{ size = 8, info = { accumulate_ordering = "rw" } } end)
  rma.expect_error("INFO", function() rma.window{ size = 8, path = "teleport" } end)
  rma.expect_error("SIZE", function() rma.window{ size = 64, flavor = "create", memory = rma.buffer(8) } end)
end })

misuse("free_twice", { all = function(ctx)
  local w = rma.window{ size = 8 }
  w:free()
  rma.expect_error("WIN", function() w:free() end)
  rma.expect_error("WIN", function() w:local_buffer() end)
end })

local function commit(ctx, name)
  local m = M[name]
  if m.all then m.all(ctx)
  elseif rma.rank == 0 and m.origin then m.origin(ctx)
  elseif rma.rank == 1 and m.target then m.target(ctx) end
  rma.barrier()
end

return {
  ranks = 2,
  options = { misuse = {"which misuse to commit; all: every one in turn", "all"} },
  -- Every misuse is an erroneous call: MPI does not require an implementation to detect it,
  -- nor says which class it returns when it does (MPI-3.1 §2.8, §8.3).
  impl_defined = "MPI does not require an implementation to detect erroneous RMA calls nor " ..
                 "says which error class it returns (MPI-3.1 §2.8, §8.3): these are the " ..
                 "reference's checks",
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
  check = function(ctx)
    -- The window still works: one fence epoch, a put from rank 0 to rank 1.
    local mark = rma.buffer(8, "u8"):iota(200)
    ctx.win:fence("noprecede")
    if rma.rank == 0 then ctx.win:put(mark, 1, 8) end
    ctx.win:fence("nosucceed")
    if rma.rank == 1 then
      rma.expect_eq(ctx.win:local_buffer():sub(8, 8), mark, "the window still works after the misuse")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
