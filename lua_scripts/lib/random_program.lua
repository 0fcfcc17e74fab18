-- Runs one random RMA program (a plain table, made by lua_scripts/lib/random_gen.lua or
-- read back from a regression script) on this rank and checks it against the sequential
-- model (random_model.lua): every rank walks the same program, issues its own ops, applies
-- every op to the model, and compares its fetched values after each epoch and its window
-- memory at the end. Only the public `rma` API is used. `require("random_program")`.
local model = require("random_model")

local P = {}

local FETCHING = { get = true, rget = true, get_accumulate = true, rget_accumulate = true,
                   fetch_and_op = true, compare_and_swap = true }
local REQUEST = { rput = true, rget = true, raccumulate = true, rget_accumulate = true }
local FLUSH = { flush = true, flush_local = true, flush_all = true, flush_local_all = true }

-- Whether any rank's result says a failure (every rank learns it: gather at 0, then tell).
local function any_failed(bad)
  local flag = rma.buffer(1, "i64"):fill(bad and 1 or 0)
  if rma.size == 1 then return bad end
  if rma.rank == 0 then
    local any = bad
    for r = 1, rma.size - 1 do
      local got = rma.buffer(1, "i64")
      rma.recv(r, got, 77)
      if got:get(0) ~= 0 then any = true end
    end
    flag:fill(any and 1 or 0)
    for r = 1, rma.size - 1 do rma.send(r, flag, 78) end
    return any
  end
  rma.send(0, flag, 77)
  rma.recv(0, flag, 78)
  return flag:get(0) ~= 0
end
P.any_failed = any_failed

-- Strings over the harness's send/recv: a length, then the bytes.
local function send_string(dst, str, tag)
  rma.send(dst, rma.buffer(1, "i64"):fill(#str), tag)
  local buf = rma.buffer(#str, "u8")
  for i = 1, #str do buf:set(i - 1, str:byte(i)) end
  if #str > 0 then rma.send(dst, buf, tag) end
end

local function recv_string(src, tag)
  local n = rma.buffer(1, "i64")
  rma.recv(src, n, tag)
  local len = n:get(0)
  if len == 0 then return "" end
  local buf = rma.buffer(len, "u8")
  rma.recv(src, buf, tag)
  local chars = {}
  for i = 0, len - 1 do chars[#chars + 1] = string.char(buf:get(i)) end
  return table.concat(chars)
end

-- After a failure somewhere: every rank learns the lowest failing rank's message, so the
-- case, the shrinker and the regression script all name the real difference.
local function first_message(msg)
  if rma.size == 1 then return msg end
  if rma.rank == 0 then
    local first = msg
    for r = 1, rma.size - 1 do
      local m = recv_string(r, 79)
      if first == nil and m ~= "" then first = m end
    end
    for r = 1, rma.size - 1 do send_string(r, first or "", 80) end
    return first
  end
  send_string(0, msg or "", 79)
  return recv_string(0, 80)
end

-- The first element where two buffers of one dtype differ, or nil.
local function first_difference(want, got)
  for i = 0, want:count() - 1 do
    if want:get(i) ~= got:get(i) then return i end
  end
  return nil
end

-- Creates window w of the program on every rank; returns a record { win, base (each rank's
-- base displacement for dynamic windows), mem (the memory to check locally) }.
local function create_window(prog, w)
  local spec = prog.windows[w]
  local mine = spec.ranks[rma.rank + 1]
  local path = spec.path or rma.path
  local rec = { spec = spec }
  local over_buffer = spec.flavor == "dynamic" or (spec.flavor == "create" and spec.memory)
  if over_buffer and path == "direct" then path = "auto" end
  if spec.flavor == "dynamic" then
    -- One attached buffer per cell (cells of dynamic windows are never empty); every rank
    -- learns every rank's cell addresses.
    rec.win = rma.window{ flavor = "dynamic", path = path }
    rec.cells, rec.addr = {}, {}
    local mine_addr = rma.buffer(math.max(#mine.cells, 1), "i64")
    for c, cell in ipairs(mine.cells) do
      rec.cells[c] = rma.buffer(cell.count, cell.dtype)
      mine_addr:set(c - 1, rec.win:attach(rec.cells[c]))
    end
    rec.addr[rma.rank + 1] = mine_addr
    for r = 0, rma.size - 1 do
      if r ~= rma.rank then rma.send(r, mine_addr, 90) end
    end
    for r = 0, rma.size - 1 do
      if r ~= rma.rank then
        local got = rma.buffer(math.max(#spec.ranks[r + 1].cells, 1), "i64")
        rma.recv(r, got, 90)
        rec.addr[r + 1] = got
      end
    end
  elseif spec.flavor == "create" and spec.memory and mine.size > 0 then
    rec.mem = rma.buffer(mine.size, "u8")
    rec.win = rma.window{ flavor = "create", memory = rec.mem, size = mine.size,
                          disp_unit = mine.du, path = path }
  else
    rec.win = rma.window{ flavor = spec.flavor, size = mine.size, disp_unit = mine.du,
                          path = path }
  end
  return rec
end

-- A typed view of this rank's cell c of a window record.
local function cell_view(rec, c)
  if rec.cells then return rec.cells[c] end
  local cell = rec.spec.ranks[rma.rank + 1].cells[c]
  local es = model.elem_bytes(cell.dtype)
  return rec.win:local_buffer(cell.dtype):sub(cell.off // es, cell.count)
end

-- Initial contents of this rank's cells (local stores inside an exclusive self-lock, the
-- portable way to store into window memory before other ranks access it).
local function initialize(rec, st_rank)
  local mine = rec.spec.ranks[rma.rank + 1]
  if #mine.cells == 0 then return end
  rec.win:lock(rma.rank, "exclusive")
  for c in ipairs(mine.cells) do cell_view(rec, c):copy_from(st_rank[c]) end
  rec.win:unlock(rma.rank)
end

-- The displacement of an op on its target.
local function disp_of(rec, op)
  if op.t == nil then return 0 end
  local layout = rec.spec.ranks[op.t + 1]
  if op.cell == nil then return 0 end
  local cell = layout.cells[op.cell]
  local es = model.elem_bytes(cell.dtype)
  if rec.addr then return rec.addr[op.t + 1]:get(op.cell - 1) + op.start * es end
  return (cell.off + op.start * es) // layout.du
end

local function target_of(op)
  if op.t == nil then return rma.PROC_NULL end
  return op.t
end

-- Issues one of this rank's ops; returns the result buffer, or a number (value forms).
local function issue(rec, op)
  local win, k = rec.win, op.k
  local t, d = target_of(op), disp_of(rec, op)
  if k == "flush" then win:flush(t) return nil end
  if k == "flush_local" then win:flush_local(t) return nil end
  if k == "flush_all" then win:flush_all() return nil end
  if k == "flush_local_all" then win:flush_local_all() return nil end
  local req, res
  local lay = model.layout(op)  -- a derived target layout, or nil
  if k == "put" then win:put(model.operand(op), t, d, lay)
  elseif k == "rput" then req = win:rput(model.operand(op), t, d, lay)
  elseif k == "get" then res = rma.buffer(op.count, op.dtype); win:get(res, t, d, lay)
  elseif k == "rget" then res = rma.buffer(op.count, op.dtype); req = win:rget(res, t, d, lay)
  elseif (k == "accumulate" or k == "raccumulate") and op.op == "no_op" and rma.backend == "mpi" then
    -- MPI defines no_op for the fetching accumulates only (MPI-3.1 §11.3.4): accumulate with
    -- no_op is the reference's extension, erroneous on a library. There the program issues
    -- MPI's equivalent, an atomic read of the same elements whose result nobody checks (the
    -- window is unchanged either way); the reference still runs the program as generated.
    local scratch = rma.buffer(op.count, op.dtype)
    rec.scratch = rec.scratch or {}
    rec.scratch[#rec.scratch + 1] = scratch
    if k == "accumulate" then win:get_accumulate(nil, scratch, t, d, "no_op", lay)
    else req = win:rget_accumulate(nil, scratch, t, d, "no_op", lay) end
  elseif k == "accumulate" then win:accumulate(model.operand(op), t, d, op.op, lay)
  elseif k == "raccumulate" then req = win:raccumulate(model.operand(op), t, d, op.op, lay)
  elseif k == "get_accumulate" or k == "rget_accumulate" then
    res = rma.buffer(op.count, op.dtype)
    local src = nil
    if op.op ~= "no_op" or not op.nil_origin then src = model.operand(op) end
    if k == "get_accumulate" then win:get_accumulate(src, res, t, d, op.op, lay)
    else req = win:rget_accumulate(src, res, t, d, op.op, lay) end
  elseif k == "fetch_and_op" then
    local v = op.value
    if op.op == "no_op" and op.nil_origin then v = nil end
    if op.form == "value" then return win:fetch_and_op(v, t, d, op.op, op.dtype) end
    res = rma.buffer(1, op.dtype)
    win:fetch_and_op(v, t, d, op.op, op.dtype, res)
  elseif k == "compare_and_swap" then
    if op.form == "value" then
      return win:compare_and_swap(op.compare, op.value, t, d, op.dtype)
    end
    res = rma.buffer(1, op.dtype)
    win:compare_and_swap(op.compare, op.value, t, d, op.dtype, res)
  end
  if req and op.wait then req:wait() end
  return res
end

-- Which ranks each rank targets in an epoch (its access group) and which target it (its
-- exposure group); which ranks it updates.
local function epoch_groups(ep)
  local access, exposure, updated = {}, {}, {}
  for _, op in ipairs(ep.ops) do
    if op.t ~= nil and not FLUSH[op.k] then
      access[op.o] = access[op.o] or {}
      access[op.o][op.t] = true
      exposure[op.t] = exposure[op.t] or {}
      exposure[op.t][op.o] = true
      if op.k ~= "get" and op.k ~= "rget" then updated[op.t] = true end
    end
  end
  return access, exposure, updated
end

local function sorted_keys(set)
  local out = {}
  for k in pairs(set or {}) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- The lock type origin o takes on target t in a lock epoch, and whether nocheck is valid
-- (every lock on t in the epoch is shared).
local function lock_type(ep, o, t) return (ep.locks and ep.locks[o .. ":" .. t]) or "shared" end

local function opens(rec, ep, prev, access, exposure, updated)
  local win, me = rec.win, rma.rank
  if ep.kind == "fence" then
    if not (prev and prev.kind == "fence" and prev.win == ep.win and not prev.nosucceed) then
      local a = { "noprecede" }
      if ep.nostore then a[#a + 1] = "nostore" end
      if ep.noput and not updated[me] then a[#a + 1] = "noput" end
      win:fence(a)
    end
  elseif ep.kind == "pscw" then
    local origins = sorted_keys(exposure[me])
    if #origins > 0 then
      local a = {}
      if ep.noput and not updated[me] then a[#a + 1] = "noput" end
      if ep.nostore then a[#a + 1] = "nostore" end
      win:post(origins, a)
    end
    local targets = sorted_keys(access[me])
    if #targets > 0 then win:start(targets) end
  elseif ep.kind == "lock" then
    for _, t in ipairs(sorted_keys(access[me])) do
      local lt = lock_type(ep, me, t)
      local a = nil
      if ep.nocheck and lt == "shared" then
        a = "nocheck"
        for o in pairs(exposure[t]) do
          if lock_type(ep, o, t) ~= "shared" then a = nil end
        end
      end
      win:lock(t, lt, a)
    end
  elseif ep.kind == "lock_all" then
    win:lock_all(ep.nocheck and "nocheck" or nil)
  end
end

local function closes(rec, ep, access, exposure)
  local win, me = rec.win, rma.rank
  if ep.kind == "fence" then
    win:fence(ep.nosucceed and "nosucceed" or nil)
  elseif ep.kind == "pscw" then
    if #sorted_keys(access[me]) > 0 then win:complete() end
    if #sorted_keys(exposure[me]) > 0 then win:wait() end
  elseif ep.kind == "lock" then
    for _, t in ipairs(sorted_keys(access[me])) do win:unlock(t) end
  elseif ep.kind == "lock_all" then
    win:unlock_all()
  end
end

-- A description of an op for failure messages.
local function describe_op(i, op)
  local s = string.format("op #%d %s from rank %d", i, op.k, op.o)
  if op.t ~= nil then s = s .. string.format(" to rank %d", op.t) else s = s .. " to PROC_NULL" end
  if op.dtype then s = s .. string.format(" %s x%d", op.dtype, op.count or 1) end
  if op.vec then
    s = s .. string.format(" as vector(%d, %d, %d)", op.vec.blocks, op.vec.bl, op.vec.stride)
  end
  if op.op then s = s .. " " .. op.op end
  return s
end

-- Compares this rank's memory of window w with the model; returns a message or nil.
local function check_window(rec, w, st_rank, where)
  local mine = rec.spec.ranks[rma.rank + 1]
  if #mine.cells == 0 then return nil end
  rec.win:lock(rma.rank, "shared")
  local msg = nil
  for c, cell in ipairs(mine.cells) do
    local want, view = st_rank[c], cell_view(rec, c)
    if not view:equals(want) then
      local es = model.elem_bytes(cell.dtype)
      local i = first_difference(want, view) or 0
      msg = string.format("%s: window %d (%s, disp_unit %d) on rank %d, byte offset %d (cell %d, %s element %d): expected %s, got %s",
        where, w, rec.spec.flavor, mine.du, rma.rank, cell.off + i * es, c, cell.dtype, i,
        tostring(want:get(i)), tostring(view:get(i)))
      break
    end
  end
  rec.win:unlock(rma.rank)
  return msg
end

-- Runs the program on this rank. Returns nil when every rank matched the model, else this
-- rank's first mismatch (or "another rank failed"); `label` prefixes messages.
function P.run(prog, label)
  local st = model.new(prog)
  local recs = {}
  for w in ipairs(prog.windows) do
    recs[w] = create_window(prog, w)
    initialize(recs[w], st[w][rma.rank + 1])
  end
  rma.barrier()
  local msg = nil
  local prev = nil
  for e, ep in ipairs(prog.epochs) do
    local rec = recs[ep.win]
    local access, exposure, updated = epoch_groups(ep)
    opens(rec, ep, prev, access, exposure, updated)
    local pending = {}
    for i, op in ipairs(ep.ops) do
      local want = nil
      if not FLUSH[op.k] then want = model.apply(st, ep.win, op) end
      if op.o == rma.rank then
        local res = issue(rec, op)
        if FETCHING[op.k] then pending[#pending + 1] = { i = i, op = op, res = res, want = want } end
      end
    end
    closes(rec, ep, access, exposure)
    for _, p in ipairs(pending) do
      if msg then break end
      local got = p.res
      local where = string.format("%s epoch %d (%s on window %d), %s", label, e, ep.kind, ep.win,
                                  describe_op(p.i, p.op))
      if type(got) == "number" then
        if got ~= p.want:get(0) then
          msg = string.format("%s: fetched %s, expected %s", where, tostring(got), tostring(p.want:get(0)))
        end
      elseif not got:equals(p.want) then
        local i = first_difference(p.want, got) or 0
        msg = string.format("%s: result element %d: expected %s, got %s", where, i,
                            tostring(p.want:get(i)), tostring(got:get(i)))
      end
    end
    rma.barrier()
    prev = ep
  end
  for w, rec in ipairs(recs) do
    if not msg then msg = check_window(rec, w, st[w][rma.rank + 1], label .. " at the end") end
  end
  for _, rec in ipairs(recs) do
    for _, buf in ipairs(rec.cells or {}) do rec.win:detach(buf) end
    rec.win:free()
  end
  if any_failed(msg ~= nil) then
    local first = first_message(msg)
    if first == nil or first == "" then first = label .. ": a rank found a mismatch" end
    return first
  end
  return nil
end

-- The number of RMA calls a program makes (ops and flushes), for the shrinker's report.
function P.call_count(prog)
  local n = 0
  for _, ep in ipairs(prog.epochs) do n = n + #ep.ops end
  return n
end

-- The configuration a case runs on, for messages.
function P.config()
  return string.format("backend=%s path=%s progress=%s np=%d", rma.backend, rma.path,
                       rma.progress, rma.size)
end

-- A case table running one fixed program (what a regression script written by the shrinker
-- returns): it fails exactly when the implementation disagrees with the model.
function P.case(prog, note)
  return {
    ranks = prog.nranks,
    run = function()
      if rma.size ~= prog.nranks then
        rma.skip(string.format("this program was made for %d ranks", prog.nranks))
      end
      local msg = P.run(prog, (note or "regression") .. " [" .. P.config() .. "]")
      rma.expect(msg == nil, msg or "")
    end,
  }
end

return P
