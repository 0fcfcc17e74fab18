-- An op immediately after window creation: creation is collective, and a rank that returns
-- from it may send an op at once — to a target that may still be finishing its own part of
-- the creation. Every flavor, many times over, with the op in the same hook as the creation;
-- every op must land in memory the target has ready.
return {
  ranks = 2,
  options = { windows = {"windows created per flavor", 20} },
  run = function(ctx)
    for _, flavor in ipairs({"allocate", "create", "shared"}) do
      for i = 1, rma.opt.windows do
        local w = rma.window{ size = 64, flavor = flavor }
        if rma.rank == 0 then
          w:lock(1, "exclusive")
          w:put(rma.buffer(8, "u8"):fill(i % 200), 1, 8)
          w:get(rma.buffer(8, "u8"), 1, 0)
          w:unlock(1)
        end
        rma.barrier()
        if rma.rank == 1 then
          rma.expect_eq(w:local_buffer():get(8), i % 200, flavor .. " window " .. i)
        end
        w:free()
      end
    end
  end,
}
