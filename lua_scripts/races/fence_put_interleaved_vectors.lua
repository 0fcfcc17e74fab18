-- fence_put_interleaved_vectors (race-free): Ranks 1 and 2 put a vector of every other i32
-- into the same 32 bytes of rank 0 in one fence epoch, rank 2's shifted by one element: the
-- layouts interleave and touch disjoint bytes, so nothing conflicts.
return {
  ranks = 3,
  setup = function(ctx)
    ctx.win = rma.window{ size = 32 }
    ctx.v = rma.buffer(4, "i32"):fill(rma.rank)
    ctx.vec = rma.type_vector(4, 1, 2, "i32")
    ctx.win:fence()
  end,
  run = function(ctx)
    if rma.rank > 0 then ctx.win:put(ctx.v, 0, 4 * (rma.rank - 1), { target_type = ctx.vec }) end
    ctx.win:fence()
  end,
  check = function(ctx)
    if rma.rank ~= 0 then return end
    local want = rma.buffer(8, "i32")
    for i = 0, 7 do want:set(i, i % 2 + 1) end
    rma.expect_eq(ctx.win:local_buffer("i32"), want, "the two vectors interleaved")
  end,
  teardown = function(ctx) ctx.vec:free(); ctx.win:free() end,
}
