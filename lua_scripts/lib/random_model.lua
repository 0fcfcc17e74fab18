-- The sequential model of a random RMA program (lua_scripts/random/): every rank's window
-- memory as typed cells, and what each op leaves there and fetches, applied in program
-- order. Deterministic by construction (the generator only makes programs whose outcome does
-- not depend on timing), so program order is as good as any order the ranks run in.
-- Accumulate and atomic results come from the harness's oracle (buf:apply), never from the
-- implementation under test. `require("random_model")`.
local model = {}

local FETCHING = { get = true, rget = true, get_accumulate = true, rget_accumulate = true,
                   fetch_and_op = true, compare_and_swap = true }

-- The bytes of one element of `dtype`.
function model.elem_bytes(dtype) return rma.buffer(1, dtype):bytes() end

-- A cell's initial contents: `iota(a, b)` of its dtype (the generator keeps floats exact).
function model.initial(cell)
  return rma.buffer(cell.count, cell.dtype):iota(cell.a, cell.b)
end

-- An op's origin data, rebuilt the same way on every rank from the op's parameters.
function model.operand(op)
  local buf = rma.buffer(op.count, op.dtype)
  if op.fill ~= nil then return buf:fill(op.fill) end
  return buf:iota(op.a, op.b)
end

-- A fresh state: state[w][r][c] is window w's cell c on rank r, as a buffer.
function model.new(prog)
  local st = {}
  for w, win in ipairs(prog.windows) do
    st[w] = {}
    for r, layout in ipairs(win.ranks) do
      st[w][r] = {}
      for c, cell in ipairs(layout.cells) do st[w][r][c] = model.initial(cell) end
    end
  end
  return st
end

-- Applies one op to the state; returns the buffer of what it fetches (get, the fetching
-- ops), or nil. Ops to PROC_NULL, zero-element ops and flushes change nothing.
function model.apply(st, w, op)
  if op.t == nil or op.cell == nil then
    if FETCHING[op.k] then return rma.buffer(op.count or 1, op.dtype) end
    return nil
  end
  if op.vec then return model.apply_blocks(st, w, op) end
  local mem = st[w][op.t + 1][op.cell]:sub(op.start, op.count)
  local k = op.k
  if k == "put" or k == "rput" then
    mem:copy_from(model.operand(op))
  elseif k == "get" or k == "rget" then
    return mem:copy()
  elseif k == "accumulate" or k == "raccumulate" then
    mem:apply(op.op, model.operand(op))
  elseif k == "get_accumulate" or k == "rget_accumulate" then
    local old = mem:copy()
    if op.op ~= "no_op" then mem:apply(op.op, model.operand(op)) end
    return old
  elseif k == "fetch_and_op" then
    local old = mem:copy()
    if op.op ~= "no_op" then mem:apply(op.op, op.value) end
    return old
  elseif k == "compare_and_swap" then
    local old = mem:copy()
    if old:get(0) == op.compare then mem:set(0, op.value) end
    return old
  end
  return nil
end

-- An op whose target layout is a vector (op.vec: blocks of bl elements every stride): the
-- same rules block by block, the origin data and the fetched values contiguous.
function model.apply_blocks(st, w, op)
  local cell = st[w][op.t + 1][op.cell]
  local v, k = op.vec, op.k
  local data = (k ~= "get" and k ~= "rget") and model.operand(op) or nil
  local fetched = FETCHING[op.k] and rma.buffer(op.count, op.dtype) or nil
  for b = 0, v.blocks - 1 do
    local mem = cell:sub(op.start + b * v.stride, v.bl)
    if fetched then fetched:sub(b * v.bl, v.bl):copy_from(mem) end
    local part = data and data:sub(b * v.bl, v.bl)
    if k == "put" or k == "rput" then mem:copy_from(part)
    elseif (k == "accumulate" or k == "raccumulate" or k == "get_accumulate"
            or k == "rget_accumulate") and op.op ~= "no_op" then
      mem:apply(op.op, part)
    end
  end
  return fetched
end

-- The layout table of an op with a vector target layout, else nil.
function model.layout(op)
  if not op.vec then return nil end
  return { target_type = rma.type_vector(op.vec.blocks, op.vec.bl, op.vec.stride, op.dtype) }
end

return model
