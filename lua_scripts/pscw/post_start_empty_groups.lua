-- Empty groups: post({}) exposes to nobody and start({}) accesses nobody, so complete and
-- wait have nothing to wait for and must return at once, costing nothing. MPI allows empty
-- groups (MPI_GROUP_EMPTY); code that computes its neighbours often produces them at the
-- edges of a domain. Here odd ranks pair with their even left neighbour (the even rank is
-- the origin, the odd one the target) while a rank without a partner — the last one when
-- the count is odd, and every rank in a second epoch — runs the same calls with empty
-- groups. Messages (am): a post and a put (carrying the done) per pair; the empty epochs
-- add nothing.
local counts = require("counts")  -- docs/message-counts.md

return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 8 }
    -- MPI_Win_allocate's memory starts undefined (MPI-3.1 §11.2.2): check reads it below.
    ctx.win:local_buffer("i64"):fill(0)
    ctx.val = rma.buffer(1, "i64"):set(0, 40 + rma.rank)
  end,
  run = function(ctx)
    local me = rma.rank
    local partner = me % 2 == 0 and me + 1 or me - 1
    local paired = partner < rma.size
    -- Epoch 1: pairs, and a lone rank with empty groups.
    local post_group, start_group = {}, {}
    if paired and me % 2 == 1 then post_group = {partner} end
    if paired and me % 2 == 0 then start_group = {partner} end
    ctx.win:post(post_group)
    ctx.win:start(start_group)
    if paired and me % 2 == 0 then ctx.win:put(ctx.val, partner, 0) end
    ctx.win:complete()
    ctx.win:wait()
    -- Epoch 2: everyone, empty groups only.
    ctx.win:post({})
    ctx.win:start({})
    ctx.win:complete()
    ctx.win:wait()
  end,
  check = function(ctx)
    local me = rma.rank
    if me % 2 == 1 then
      rma.expect_eq(ctx.win:local_buffer("i64"):get(0), 40 + me - 1, "the partner's put")
    else
      rma.expect_eq(ctx.win:local_buffer("i64"):get(0), 0, "nobody put into an origin")
    end
  end,
  teardown = function(ctx) ctx.win:free() end,
  messages = function()
    local pairs = rma.size // 2
    return counts.with_epoch({ put = pairs }, "pscw", pairs)
  end,
}
