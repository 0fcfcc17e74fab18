-- Shrinks a failing random program (lua_scripts/random/programs.lua -o shrink=true): tries
-- smaller programs — an epoch dropped, an op dropped, every op of one origin dropped, a
-- cell halved — runs each on every rank (all ranks make the same candidates, in the same
-- order) and keeps it while it still fails; then writes it as a standalone script for
-- lua_scripts/regressions/. Every candidate is a subset of a valid program, so it is valid
-- too (disjoint ranges stay disjoint, one origin stays one origin). `require("random_shrink")`.
local P = require("random_program")
local model = require("random_model")

local S = {}

local function deep_copy(v)
  if type(v) ~= "table" then return v end
  local out = {}
  for k, x in pairs(v) do out[k] = deep_copy(x) end
  return out
end

-- Lays out window w's cells on rank index ri again after a count changed.
local function relayout(spec, ri)
  local off = 0
  for _, cell in ipairs(spec.ranks[ri].cells) do
    cell.off = off
    off = off + (cell.count * model.elem_bytes(cell.dtype) + 7) // 8 * 8
  end
  spec.ranks[ri].size = off
end

-- Every one-step smaller program, largest steps first.
local function candidates(prog)
  local out = {}
  for e = #prog.epochs, 1, -1 do
    local c = deep_copy(prog)
    table.remove(c.epochs, e)
    out[#out + 1] = c
  end
  for o = 0, prog.nranks - 1 do
    local c, dropped = deep_copy(prog), false
    for _, ep in ipairs(c.epochs) do
      for i = #ep.ops, 1, -1 do
        if ep.ops[i].o == o then table.remove(ep.ops, i); dropped = true end
      end
    end
    if dropped then out[#out + 1] = c end
  end
  for e, ep in ipairs(prog.epochs) do
    for i = #ep.ops, 1, -1 do
      local c = deep_copy(prog)
      table.remove(c.epochs[e].ops, i)
      out[#out + 1] = c
    end
  end
  -- Windows no epoch uses.
  for w = #prog.windows, 1, -1 do
    local used = false
    for _, ep in ipairs(prog.epochs) do if ep.win == w then used = true end end
    if not used and #prog.windows > 1 then
      local c = deep_copy(prog)
      table.remove(c.windows, w)
      for _, ep in ipairs(c.epochs) do if ep.win > w then ep.win = ep.win - 1 end end
      out[#out + 1] = c
    end
  end
  -- Halve a cell (ops on it are cut to what remains; single-element ops past it dropped).
  for w, spec in ipairs(prog.windows) do
    for ri, layout in ipairs(spec.ranks) do
      for ci, cell in ipairs(layout.cells) do
        if cell.count > 1 then
          local c = deep_copy(prog)
          local n = cell.count // 2
          c.windows[w].ranks[ri].cells[ci].count = n
          relayout(c.windows[w], ri)
          for _, ep in ipairs(c.epochs) do
            if ep.win == w then
              for i = #ep.ops, 1, -1 do
                local op = ep.ops[i]
                if op.t == ri - 1 and op.cell == ci then
                  if op.start >= n then table.remove(ep.ops, i)
                  else op.vec = nil; op.count = math.min(op.count, n - op.start) end
                end
              end
            end
          end
          out[#out + 1] = c
        end
      end
    end
  end
  return out
end

-- Shrinks `prog` (which fails) for at most `budget` runs; returns the smallest failing
-- program found, its failure message and the number of runs.
function S.shrink(prog, msg, label, budget)
  local runs = 0
  local progress = true
  while progress and runs < budget do
    progress = false
    for _, c in ipairs(candidates(prog)) do
      if runs >= budget then break end
      runs = runs + 1
      local m = P.run(c, label)
      if m then prog, msg, progress = c, m, true; break end
    end
  end
  return prog, msg, runs
end

-- A Lua literal of a value (sorted keys, so the file is the same on every run).
local function literal(v, indent)
  if type(v) == "table" then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b)
      if type(a) == type(b) then return a < b end
      return type(a) == "number"
    end)
    local pad = string.rep("  ", indent + 1)
    local parts = {}
    for _, k in ipairs(keys) do
      local key
      if type(k) == "number" then key = ""
      elseif k:match("^[%a_][%w_]*$") then key = k .. " = "
      else key = string.format("[%q] = ", k) end
      parts[#parts + 1] = pad .. key .. literal(v[k], indent + 1)
    end
    if #parts == 0 then return "{}" end
    return "{\n" .. table.concat(parts, ",\n") .. ",\n" .. string.rep("  ", indent) .. "}"
  elseif type(v) == "string" then
    return string.format("%q", v)
  elseif math.type(v) == "float" then
    return string.format("%q", v)
  end
  return tostring(v)
end
S.literal = literal

-- Writes the program as a standalone regression script at `path`.
function S.write(path, prog, msg, origin)
  local f = assert(io.open(path, "w"))
  local first = msg:gsub("\n", " ")
  f:write(string.format("-- Regression: random program %s, shrunk to %d RMA calls.\n",
                        origin, P.call_count(prog)))
  f:write("-- It failed with: " .. first .. "\n")
  f:write("-- The program runs through lua_scripts/lib/random_program.lua, which checks every\n")
  f:write("-- fetched value and the final window contents against the sequential model.\n")
  f:write("return require(\"random_program\").case(" .. literal(prog, 0) .. ", "
          .. string.format("%q", "regression " .. origin) .. ")\n")
  f:close()
end

return S
