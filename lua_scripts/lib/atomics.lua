-- What the op × dtype patterns (atomics/accumulate_ops, fetch_and_op_ops, get_accumulate_ops,
-- compare_and_swap_ops) share: their options, the operand pairs per dtype, a window with one
-- slot per valid (op, dtype), the two forms of a fetching op and what it costs in messages;
-- `require("atomics")`. Expected values come from the harness's oracle (rma.oracle,
-- buf:apply), never from the implementation under test; the operands keep it exact in any
-- order.
local counts = require("counts")
local epoch = require("epoch")

local atomics = {}

-- {initial target value, origin operand} pairs, by the dtype's kind: wrap-around, negative,
-- zero and bit patterns for integers; small floats, so that sums and products are exact.
local PAIRS = {
  i = { {5, 3}, {-7, 2}, {100, 100}, {0, -1}, {-100, -100}, {6, 0}, {0, 0}, {85, 51} },
  u = { {5, 3}, {200, 100}, {0, 7}, {255, 1}, {85, 51}, {6, 0}, {0, 0}, {128, 200} },
  f = { {1.5, 1.5}, {-3.0, 0.5}, {0.0, -1.0}, {7.0, 2.0}, {0.25, -3.0}, {6.0, 0.0} },
}

local function is_float(dtype) return dtype:sub(1, 1) == "f" end

-- Whether the op is defined on the dtype (the oracle raises OP where it is not).
local function valid(op, dtype) return (pcall(rma.oracle, op, dtype, 0, 0)) end

-- Origin r's operand from a pair's base: integers differ per origin (wrapping), floats stay
-- the same so that any order of the origins gives the same exact result.
function atomics.operand(dtype, base, r)
  if is_float(dtype) then return base end
  return rma.oracle("sum", dtype, base, r)
end

-- A second operand after `a`, for ops applied twice in a row: another value of the type.
function atomics.second(dtype, a)
  if is_float(dtype) then return a * 2 end
  return rma.oracle("sum", dtype, a, 1)
end

-- The options these patterns declare, by name: `options = atomics.options("sync", "op")`.
function atomics.options(...)
  local known = {
    sync = epoch.option(),
    form = {"value (returned at once) or buffer (a result buffer)", "value"},
    dtype = {"one dtype, or all", "all"},
    op = {"one op, or all", "all"},
  }
  local out = {}
  for _, name in ipairs({...}) do out[name] = assert(known[name], name) end
  return out
end

-- `list`, or only `choice` unless it is "all" (the dtype and op options).
local function pick(list, choice)
  if choice == "all" then return list end
  return {choice}
end

-- The window's slots: one per valid (op, dtype) that the `dtype` and `op` options pick, each
-- holding its dtype's pairs, 8-byte aligned. A slot is { op, dtype, pairs, es (element
-- bytes), off (byte displacement), elem (element index) }. Returns the slots, the bytes they
-- take, and the (op, dtype) combinations that are not valid. `leave_out[op]` true: that op
-- gets no slot unless the `op` option names it.
local function layout(leave_out)
  local slots, off, invalid = {}, 0, {}
  local ops = pick(rma.ops, rma.opt.op)
  if leave_out and rma.opt.op == "all" then
    local kept = {}
    for _, op in ipairs(ops) do if not leave_out[op] then kept[#kept + 1] = op end end
    ops = kept
  end
  for _, dtype in ipairs(pick(rma.dtypes, rma.opt.dtype)) do
    local pairs_ = PAIRS[dtype:sub(1, 1)]
    local es = rma.buffer(1, dtype):bytes()
    for _, op in ipairs(ops) do
      if valid(op, dtype) then
        slots[#slots + 1] = { op = op, dtype = dtype, pairs = pairs_, es = es, off = off,
                              elem = off // es }
        off = off + (#pairs_ * es + 7) // 8 * 8
      else
        invalid[#invalid + 1] = { op = op, dtype = dtype }
      end
    end
  end
  return slots, off, invalid
end

-- The slots (layout above) and a window for them, created collectively; a rank for which
-- `initialize` is true stores every slot's initial values in its own window. Returns the
-- slots, the window and the invalid (op, dtype) combinations. `leave_out`: as for layout.
function atomics.window(initialize, leave_out)
  local slots, size, invalid = layout(leave_out)
  local win = rma.window{ size = math.max(size, 8) }
  if initialize then
    for _, s in ipairs(slots) do atomics.view(win, s):copy_from(atomics.column(s, 1)) end
  end
  return slots, win, invalid
end

-- A slot's elements in a window's local memory.
function atomics.view(win, slot)
  return win:local_buffer(slot.dtype):sub(slot.elem, #slot.pairs)
end

-- A new buffer of the slot's pairs' column `col` (1: initial values, 2: operands), each
-- passed through `f` when given.
function atomics.column(slot, col, f)
  local buf = rma.buffer(#slot.pairs, slot.dtype)
  for i, p in ipairs(slot.pairs) do
    local v = p[col]
    if f then v = f(v) end
    buf:set(i - 1, v)
  end
  return buf
end

-- form=value needs a passive epoch (the call completes the op): under fence or pscw the case
-- skips, saying why; `call` names the op.
function atomics.check_form(call)
  if rma.opt.form == "value" and (rma.opt.sync == "fence" or rma.opt.sync == "pscw") then
    rma.skip("a " .. call .. " returning its value needs a lock or lock_all epoch")
  end
end

-- Issues a fetching op in the form rma.opt.form names; `issue(result)` calls the window
-- method with `result` as its result buffer. form=value: no buffer, the call returns the old
-- value at once; form=buffer: a one-element view of `res`, filled at the epoch's end. Either
-- way the old value lands in res[i].
function atomics.fetch(res, i, issue)
  if rma.opt.form == "value" then res:set(i, issue(nil)) else issue(res:sub(i, 1)) end
end

-- Messages (am) of M fetching ops per rank (`packet`: fetch_and_op or compare_and_swap),
-- each to the right neighbour and each with its reply, in the epoch rma.opt.sync names.
-- form=value: each op completes at once; the first carries the lock request and the epoch
-- ends with an unlock packet, n·(2M + 1). form=buffer: as any op in that epoch, `held` the
-- bytes a target would hold for each origin's epoch (counts.lock_request).
function atomics.fetch_messages(packet, m, held)
  local n = rma.size
  if n == 1 then return { total = 0 } end
  local by = { [packet] = n * m, [packet .. "_resp"] = n * m }
  if rma.opt.form == "value" then
    by.unlock = n
    by.total = n * (2 * m + 1)
    return by
  end
  return counts.with_epoch(by, rma.opt.sync, counts.ring_pairs(), held)
end

-- The run hook of the op × dtype patterns: one ring epoch of the kind rma.opt.sync names
-- (every rank an origin for its right neighbour, lib/epoch.lua), `before(win, right)` once
-- if given, then `issue(win, right, slot)` for every slot of ctx.slots.
function atomics.ring_over_slots(ctx, issue, before)
  local win = ctx.win
  local right = epoch.open_ring(win, rma.opt.sync)
  if before then before(win, right) end
  for _, s in ipairs(ctx.slots) do issue(win, right, s) end
  epoch.close_ring(win, rma.opt.sync)
end

return atomics
