-- Zero-size windows: odd ranks give size 0 (MPI allows it for every flavor with a size;
-- such a rank exposes nothing but takes part in every collective and may still be an
-- origin). `flavor`: allocate, create or shared. Under lock_all every rank puts its id
-- into its own slot of each even rank's window; to each odd rank it sends zero-byte puts
-- and gets (allowed: nothing is accessed) and must get RMA_RANGE for a single element.
-- Zero-size ranks report size 0 and an empty local buffer, and in a shared window
-- shared_query of an odd rank is empty. Messages (am): each put to an even rank carries
-- the lock and the unlock and is acked — 2 per pair; zero-byte ops send nothing.
local function size_of(r) return r % 2 == 0 and 8 * rma.size or 0 end

return {
  ranks = 4,
  -- RMA_RANGE for an access outside the target window is the reference's check: MPI makes
  -- such an access erroneous only, and does not require detecting it (MPI-3.1 §11.2, §8.3;
  -- errors/misuse's disp_past_end checks it on a library, declared impl_defined there). On a
  -- library the erroneous access is not made, so that the case judges the rest.
  options = { flavor = {"allocate, create or shared", "allocate"} },
  setup = function(ctx)
    local ok, win = pcall(rma.window, { size = size_of(rma.rank), flavor = rma.opt.flavor, disp_unit = 8 })
    if not ok and rma.opt.flavor == "shared" and type(win) == "table" and win.class == "RMA_FLAVOR" then
      -- Creation is collective: every rank gets the same error, so every rank skips.
      rma.skip("backend " .. rma.backend .. " has no memory every rank can map: " .. win.message)
    elseif not ok then
      error(win, 0)
    end
    ctx.win = win
    rma.expect_eq(ctx.win:size(), size_of(rma.rank), "my window's size")
    rma.expect_eq(ctx.win:local_buffer("i64"):count(), size_of(rma.rank) // 8, "my local buffer")
    if size_of(rma.rank) > 0 then ctx.win:local_buffer("i64"):fill(-1) end
    ctx.mine = rma.buffer(1, "i64"):set(0, 100 + rma.rank)
    ctx.none = rma.buffer(0, "i64")
  end,
  run = function(ctx)
    local win = ctx.win
    win:lock_all()
    for t = 0, rma.size - 1 do
      if size_of(t) > 0 then
        win:put(ctx.mine, t, rma.rank)
      else
        win:put(ctx.none, t, 0)
        win:get(ctx.none, t, 0)
        win:accumulate(ctx.none, t, 0, "sum")
        if rma.backend ~= "mpi" then
          rma.expect_error("RMA_RANGE", function() win:put(ctx.mine, t, 0) end)
        end
      end
    end
    win:unlock_all()
  end,
  check = function(ctx)
    if size_of(rma.rank) > 0 then
      local mem = ctx.win:local_buffer("i64")
      for r = 0, rma.size - 1 do rma.expect_eq(mem:get(r), 100 + r, "slot of origin " .. r) end
    end
    if rma.opt.flavor == "shared" then
      for r = 0, rma.size - 1 do
        rma.expect_eq(ctx.win:shared_query(r, "i64"):count(), size_of(r) // 8,
                      "shared_query of rank " .. r)
      end
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local pairs = 0
    for r = 0, rma.size - 1 do
      for t = 0, rma.size - 1 do
        if t ~= r and size_of(t) > 0 then pairs = pairs + 1 end
      end
    end
    return { total = 2 * pairs, put = pairs, ack = pairs }
  end,
}
