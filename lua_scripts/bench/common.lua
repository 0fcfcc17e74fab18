-- Shared by the benchmark patterns: windows of every flavor, the op under test, and what
-- each synchronization mode costs in messages on the am path (docs/message-counts.md).
local counts = require("counts")  -- protocol, hold budget (lib/)
local typemap = require("typemap")  -- a dtype's extent (lib/)

local M = {}

-- A window of `bytes` at rank 1 (every rank makes one, collectively), as `flavor` says.
-- Returns the window and the displacement ops use at the target.
function M.window(flavor, bytes)
  if flavor == "dynamic" then
    local w = rma.window{ flavor = "dynamic", path = "auto" }
    local mem = rma.buffer(bytes, "u8")
    local addr = rma.buffer(1, "i64"):set(0, w:attach(mem))
    -- Rank 1 tells rank 0 where its memory is.
    if rma.rank == 1 then rma.send(0, addr, 77) elseif rma.rank == 0 then rma.recv(1, addr, 77) end
    return w, addr:get(0), mem
  end
  if flavor == "create" or flavor == "allocate" or flavor == "shared" then
    return rma.window{ size = bytes, flavor = flavor }, 0
  end
  rma.fail("unknown flavor '" .. flavor .. "'")
end

-- Issues one op of `size` bytes (i64 elements for the accumulate family) from rank 0.
function M.op(ctx, op)
  local w, d = ctx.win, ctx.disp
  if op == "put" then w:put(ctx.data, 1, d)
  elseif op == "get" then w:get(ctx.data, 1, d)
  elseif op == "accumulate" then w:accumulate(ctx.data, 1, d, "sum")
  elseif op == "get_accumulate" then w:get_accumulate(ctx.data, ctx.result, 1, d, "sum")
  elseif op == "fetch_and_op" then w:fetch_and_op(1, 1, d, "sum", "i64", ctx.result)
  elseif op == "compare_and_swap" then w:compare_and_swap(0, 0, 1, d, "i64", ctx.result)
  else rma.fail("unknown op '" .. op .. "'") end
end

-- The element dtype of `op`: put and get move `dtype` (u8 unless the script's option says),
-- the accumulate family i64.
function M.dtype(op, dtype)
  if op == "put" or op == "get" then return dtype or "u8" end
  return "i64"
end

-- Bytes of one element of `op`'s dtype (its extent: a pair with its padding).
function M.element_bytes(op, dtype)
  return typemap.extent(typemap.basic(M.dtype(op, dtype)))
end

-- Bytes one op moves: `size` rounded down to whole elements of its dtype, one at least
-- (bytes: `size` itself; fetch_and_op / compare_and_swap: one i64).
function M.op_bytes(op, size, dtype)
  if op == "fetch_and_op" or op == "compare_and_swap" then return 8 end
  local extent = M.element_bytes(op, dtype)
  if extent == 1 then return size end  -- bytes: as asked, 0 too
  return math.max(extent, size // extent * extent)
end

-- flush and flush_local keep one lock_all epoch open across the iterations: rank 0 takes it
-- (and completes one op in it, so that no iteration pays for the grant) in setup, and
-- releases it in teardown.
local function held(sync) return sync == "flush" or sync == "flush_local" end

function M.open_held(ctx, op)
  if rma.rank == 0 and held(rma.opt.sync) then
    ctx.win:lock_all()
    M.op(ctx, op)
    ctx.win:flush(1)
  end
end

function M.teardown(ctx)
  if rma.rank == 0 and held(rma.opt.sync) then ctx.win:unlock_all() end
  ctx.win:free()
end

-- One iteration: `issue()` (rank 0's ops to rank 1) inside the synchronization `sync` names.
function M.iteration(ctx, sync, issue)
  local w = ctx.win
  if sync == "fence" then
    w:fence("noprecede")
    if rma.rank == 0 then issue() end
    w:fence("nosucceed")
  elseif sync == "pscw" then
    if rma.rank == 0 then w:start({1}); issue(); w:complete()
    elseif rma.rank == 1 then w:post({0}); w:wait() end
  elseif rma.rank == 0 then
    if sync == "lock" then w:lock(1, "exclusive"); issue(); w:unlock(1)
    elseif sync == "lock_all" then w:lock_all(); issue(); w:unlock_all()
    elseif sync == "flush" then issue(); w:flush(1)
    elseif sync == "flush_local" then issue(); w:flush_local(1)
    else rma.fail("unknown sync '" .. sync .. "'") end
  end
end

-- RMA packets per iteration on the am path for one op (`n` of them per epoch) under `sync`:
-- the steady state, since setup takes any lock held across iterations.
function M.am_messages(op, sync, bytes, n)
  n = n or 1
  -- A zero-byte op sends nothing (MPI lets a count of 0 through): the epoch costs what an
  -- empty one does, nothing under lock or flush, PSCW's post and `done`, fence's exchange.
  if bytes == 0 then
    if sync == "pscw" then return counts.total(counts.add({ done = 1 }, counts.post(1))).total end
    if sync == "fence" then return counts.fence({}).fence_count end
    return 0
  end
  local eager = bytes <= rma.eager_limit
  local fetching = op == "get" or op == "get_accumulate" or op == "fetch_and_op"
                   or op == "compare_and_swap"
  local rndv = not eager and op ~= "get"  -- a large op's data waits for a cts
  local per_op = 1 + (fetching and 1 or 0) + (rndv and 1 or 0)
  -- fewest: the epoch's ops go ahead of the grant or post when the target may hold them
  local sent = (eager and op ~= "get" and op ~= "fetch_and_op" and op ~= "compare_and_swap")
               and bytes or (op == "fetch_and_op" and 8 or op == "compare_and_swap" and 16 or 0)
  local fits = n * (counts.HEADER + sent) <= counts.HOLD_BUDGET
  local fewest = counts.protocol() == "fewest"
  if sync == "lock" or sync == "lock_all" then
    if (n == 1 and not rndv) or (fewest and fits) then                     -- lock rides along
      return n * per_op + (fetching and 0 or 1)
    end
    return 2 + n * per_op + (fetching and 0 or 1)                          -- request, grant, ack
  elseif sync == "flush" then
    return n * per_op + (fetching and 0 or 1)
  elseif sync == "flush_local" then
    return n * per_op
  elseif sync == "pscw" then
    if fewest then return n * per_op + (fits and 0 or 2) end  -- or ask, post
    return 1 + n * per_op          -- post; the last op carries done
  elseif sync == "fence" then
    -- the closing fence's exchange on two ranks (counts.fence): ch3's 2 ahead of the ops;
    -- fewest's rank 1 saying it sent nothing, rank 0's last op being its mark (or, over the
    -- hold budget, an `enter` note first)
    return counts.fence({ { 0, 1 } }, nil, fits).fence_count + n * per_op
  end
end

return M
