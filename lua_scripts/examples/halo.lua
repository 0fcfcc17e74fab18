-- halo exchange, the tutorial's second pattern (docs/writing-patterns.md): each rank owns
-- `cells` interior cells of a periodic 1-D grid in a typed window (f64, disp_unit 8) with a
-- ghost cell at each end, and in one fence epoch puts its first interior cell into its left
-- neighbour's right ghost and its last into its right neighbour's left ghost. Displacements
-- are in elements of the target's disp_unit: element 0 is the left ghost, cells + 1 the right.
--
-- The epoch opens with fence("noprecede") and closes with fence("nosucceed"), so `run` is
-- the same epoch every time it runs: with `iterations` (and under `rmabench bench`, which
-- replays `run` many times) a plain opening fence would close the previous iteration's
-- epoch and cost that epoch's count exchange again. Messages per iteration: 2 puts per rank
-- plus the closing fence's count exchange (docs/message-counts.md, `counts.fence`); for 4
-- ranks under fewest 8 puts and 2 notes, 10 in all.
local counts = require("counts")

return {
  ranks = 4,
  options = {
    cells = {"interior cells per rank", 4},
  },
  setup = function(ctx)
    local n = rma.opt.cells
    ctx.win = rma.window{ size = 8 * (n + 2), disp_unit = 8 }   -- n cells and two ghosts
    local grid = ctx.win:local_buffer("f64")
    for i = 1, n do grid:set(i, rma.rank * 100 + i) end        -- no epoch open: a local store
    ctx.first = rma.buffer(1, "f64"):fill(rma.rank * 100 + 1)  -- what goes left
    ctx.last = rma.buffer(1, "f64"):fill(rma.rank * 100 + n)   -- what goes right
  end,
  run = function(ctx)
    local n = rma.opt.cells
    local left, right = (rma.rank - 1) % rma.size, (rma.rank + 1) % rma.size
    ctx.win:fence("noprecede")                 -- opens an epoch, closes none: costs nothing
    ctx.win:put(ctx.first, left, n + 1)        -- the left neighbour's right ghost (element)
    ctx.win:put(ctx.last, right, 0)            -- the right neighbour's left ghost
    ctx.win:fence("nosucceed")                 -- completes both puts everywhere
  end,
  check = function(ctx)
    local n = rma.opt.cells
    local left, right = (rma.rank - 1) % rma.size, (rma.rank + 1) % rma.size
    local grid = ctx.win:local_buffer("f64")
    rma.expect_eq(grid:get(0), left * 100 + n, "left ghost: the left neighbour's last cell")
    rma.expect_eq(grid:get(n + 1), right * 100 + 1, "right ghost: the right neighbour's first")
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local n = rma.size
    if n == 1 then return { total = 0 } end   -- puts to self send nothing
    -- The origin-target pairs with ops, each once (with 2 ranks left and right are one).
    local links, seen = {}, {}
    for r = 0, n - 1 do
      for _, t in ipairs({ (r - 1) % n, (r + 1) % n }) do
        if not seen[r .. ">" .. t] then
          seen[r .. ">" .. t] = true
          links[#links + 1] = { r, t }
        end
      end
    end
    return counts.total(counts.add({ put = 2 * n }, counts.fence(links)))
  end,
}
