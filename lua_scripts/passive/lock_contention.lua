-- Lock contention from every rank on rank 0, `reps` epochs each: exclusive epochs write the
-- origin's rank over a shared 8-element range in two accumulates (replace), flush, and read
-- it back atomically in the same epoch — it must read its own rank everywhere, which only holds if
-- no other origin's op, held or not, lands inside the epoch; shared epochs replace the
-- origin's own element, read it back, and add 1 to a common counter. Under the fewest
-- protocol the ops travel ahead of the grant and the target holds them: this is the case
-- that catches a held op applied early.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 4,
  options = { lock = {"shared or exclusive", "exclusive"}, reps = {"lock epochs per rank", 200} },
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 * (9 + rma.size) }
    -- MPI_Win_allocate's memory starts undefined (MPI-3.1 §11.2.2): the counter starts at 0.
    ctx.win:local_buffer("i64"):fill(0)
    ctx.mine = rma.buffer(4, "i64"):fill(rma.rank)
    ctx.one = rma.buffer(1, "i64"):fill(1)
    ctx.got = rma.buffer(8, "i64")
  end,
  run = function(ctx)
    local exclusive = rma.opt.lock == "exclusive"
    for i = 1, rma.opt.reps do
      ctx.win:lock(0, rma.opt.lock)
      if exclusive then
        ctx.win:accumulate(ctx.mine, 0, 0, "replace")
        ctx.win:accumulate(ctx.mine, 0, 32, "replace")
        ctx.win:flush(0)  -- the epoch spans a round trip: room for an intruder to show
        ctx.win:get_accumulate(nil, ctx.got, 0, 0, "no_op")
      else
        ctx.win:accumulate(ctx.mine:sub(0, 1), 0, 8 * (9 + rma.rank), "replace")
        ctx.win:accumulate(ctx.one, 0, 64, "sum")
        ctx.win:get_accumulate(nil, ctx.got:sub(0, 1), 0, 8 * (9 + rma.rank), "no_op")
      end
      ctx.win:unlock(0)
      local n = exclusive and 8 or 1
      for k = 0, n - 1 do
        if ctx.got:get(k) ~= rma.rank then
          rma.expect_eq(ctx.got:get(k), rma.rank, "epoch " .. i .. ", element " .. k ..
                        " read back inside the rank's own " .. rma.opt.lock .. " epoch")
          return
        end
      end
    end
  end,
  check = function(ctx)
    if rma.rank == 0 and rma.opt.lock == "shared" then
      rma.expect_eq(ctx.win:local_buffer("i64"):get(8), rma.size * rma.opt.reps,
                    "every shared-epoch increment kept")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  -- Per remote origin and epoch: two accumulates, a get_accumulate and its reply (the reply
  -- is the unlock's acknowledgement), and for exclusive epochs the flush's ack; ops to self
  -- send nothing.
  messages = function()
    local links = (rma.size - 1) * rma.opt.reps
    local by = { accumulate = 2 * links, get_accumulate = links, get_accumulate_resp = links }
    if rma.opt.lock == "exclusive" then by.ack = links end
    return counts.with_epoch(by, "lock", links)
  end,
}
