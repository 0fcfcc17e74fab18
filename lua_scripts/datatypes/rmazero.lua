-- rmazero: a port of MPICH's test/mpi/rma/rmazero.c (zero-byte operations). Every rank issues
-- every communication call with count 0 to rank 0 — put, get, accumulate, get_accumulate,
-- plain and through the derived type contiguous(2, i32) (MPICH has the derived one for
-- accumulate), under fence, under an exclusive lock, and as request-based calls (waited
-- after the unlock, as MPICH does) — and none may fail. Beyond MPICH's checks, nothing may
-- change: rank 0's window (disp_unit two ints, as MPICH's) keeps its sentinel, and the origin
-- and result buffers theirs.
local SENTINEL = -9

return {
  ranks = 2,
  setup = function(ctx)
    ctx.win = rma.window{ size = 64, disp_unit = 8, flavor = "create" }
    ctx.win:local_buffer("i32"):fill(SENTINEL)
    ctx.buf = rma.buffer(4, "i32"):fill(SENTINEL)
    ctx.result = rma.buffer(4, "i32"):fill(SENTINEL)
  end,
  run = function(ctx)
    local win, buf, res = ctx.win, ctx.buf, ctx.result
    local d = rma.type_contiguous(2, "i32")
    local derived = { origin_type = d, origin_count = 0, target_type = d, target_count = 0,
                      result_type = d, result_count = 0 }
    -- The plain calls: zero-length views (count 0 of the buffers' own dtype, the default
    -- layout on both sides).
    local views = { buf:sub(0, 0), res:sub(0, 0) }
    local function ops(request)
      return {
        { "put", function() return win[request and "rput" or "put"](win, views[1], 0, 0) end },
        { "get", function() return win[request and "rget" or "get"](win, views[1], 0, 0) end },
        { "accumulate", function()
            return win[request and "raccumulate" or "accumulate"](win, views[1], 0, 0, "sum") end },
        { "get_accumulate", function()
            return win[request and "rget_accumulate" or "get_accumulate"](win, views[1], views[2], 0, 0, "sum") end },
        { "put derived", function() return win[request and "rput" or "put"](win, buf, 0, 0, derived) end },
        { "get derived", function() return win[request and "rget" or "get"](win, buf, 0, 0, derived) end },
        { "accumulate derived", function()
            return win[request and "raccumulate" or "accumulate"](win, buf, 0, 0, "sum", derived) end },
        { "get_accumulate derived", function()
            return win[request and "rget_accumulate" or "get_accumulate"](win, buf, res, 0, 0, "sum",
                                                                          derived) end },
      }
    end
    local function try(what, f)
      local ok, r = pcall(f)
      rma.expect(ok, "zero-count " .. what .. ": " .. (ok and "" or tostring(type(r) == "table" and
                 (r.class .. " " .. tostring(r.message)) or r)))
      return ok and r or nil
    end
    win:fence()
    for _, c in ipairs(ops(false)) do
      try(c[1] .. " (fence)", c[2])
      win:fence()
    end
    for _, c in ipairs(ops(false)) do
      win:lock(0, "exclusive"); try(c[1] .. " (lock)", c[2]); win:unlock(0)
    end
    for _, c in ipairs(ops(true)) do
      win:lock(0, "exclusive")
      local req = try(c[1] .. " (request)", c[2])
      win:unlock(0)
      if req then req:wait() end
    end
    win:fence()
    d:free()
  end,
  check = function(ctx)
    if rma.rank == 0 then
      local mem = ctx.win:local_buffer("i32")
      for i = 0, mem:count() - 1 do rma.expect_eq(mem:get(i), SENTINEL, "window element " .. i) end
    end
    for i = 0, 3 do
      rma.expect_eq(ctx.buf:get(i), SENTINEL, "origin element " .. i)
      rma.expect_eq(ctx.result:get(i), SENTINEL, "result element " .. i)
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
}
