-- Request-based operations: rput, rget, raccumulate and rget_accumulate, each rank to its
-- right neighbour in one passive epoch (`sync=lock` or `lock_all`), completed by
-- `complete`:
--   wait    req:wait() on each — local completion: rput's and raccumulate's buffers may be
--           reused (they are overwritten at once), rget's and rget_accumulate's results
--           are there;
--   test    req:test() polled until it returns true — MPI's progress rule: repeated tests
--           must eventually complete a request without any other call;
--   unlock  no wait at all: the unlock completes every operation of the epoch, after which
--           each request's test must say true at once.
-- At the target the put, the accumulate (the oracle's sum) and the rget_accumulate's sum
-- must all be there after the epoch; the origin's results must hold the target's values.
return {
  ranks = 2,
  options = {
    complete = {"wait, test or unlock", "wait"},
    sync = {"lock or lock_all", "lock"},
    test_s = {"seconds test() may poll a request before the case fails", 5.0},
  },
  setup = function(ctx)
    ctx.win = rma.window{ size = 4 * 8 * 4 }
    local mem = ctx.win:local_buffer("i64")
    mem:sub(4, 4):iota(10)                 -- accumulated into
    mem:sub(8, 4):iota(100 + rma.rank)     -- read by rget
    mem:sub(12, 4):iota(50)                -- rget_accumulate
    ctx.put = rma.buffer(4, "i64"):iota(7 + rma.rank)
    ctx.add = rma.buffer(4, "i64"):fill(3)
    ctx.got = rma.buffer(4, "i64")
    ctx.old = rma.buffer(4, "i64")
  end,
  run = function(ctx)
    local right = (rma.rank + 1) % rma.size
    local win = ctx.win
    if rma.opt.sync == "lock_all" then win:lock_all() else win:lock(right, "shared") end
    local reqs = {
      win:rput(ctx.put, right, 0),
      win:raccumulate(ctx.add, right, 32, "sum"),
      win:rget(ctx.got, right, 64),
      win:rget_accumulate(ctx.add, ctx.old, right, 96, "sum"),
    }
    local how = rma.opt.complete
    if how == "wait" then
      for _, r in ipairs(reqs) do r:wait() end
    elseif how == "test" then
      local names = {"rput", "raccumulate", "rget", "rget_accumulate"}
      for i, r in ipairs(reqs) do
        local polls, t0 = 1, rma.now()
        while not r:test() do
          polls = polls + 1
          if rma.now() - t0 > rma.opt.test_s then
            rma.fail(names[i] .. ": test() polled " .. polls .. " times over " .. rma.opt.test_s ..
                     " s without completing the request")
          end
        end
      end
    elseif how ~= "unlock" then
      rma.fail("unknown completion '" .. how .. "'")
    end
    if how ~= "unlock" then
      -- Locally complete: origin buffers are free, results are in.
      ctx.put:fill(-1)
      ctx.add:fill(-1)
      ctx.seen_got, ctx.seen_old = ctx.got:copy(), ctx.old:copy()
    end
    if rma.opt.sync == "lock_all" then win:unlock_all() else win:unlock(right) end
    if how == "unlock" then
      for i, r in ipairs(reqs) do rma.expect(r:test(), "request " .. i .. " complete after unlock") end
      ctx.seen_got, ctx.seen_old = ctx.got:copy(), ctx.old:copy()
    end
  end,
  check = function(ctx)
    local left = (rma.rank - 1) % rma.size
    local right = (rma.rank + 1) % rma.size
    local mem = ctx.win:local_buffer("i64")
    rma.expect_eq(mem:sub(0, 4), rma.buffer(4, "i64"):iota(7 + left), "rput arrived")
    rma.expect_eq(mem:sub(4, 4), rma.buffer(4, "i64"):iota(10):apply("sum", 3), "raccumulate applied")
    rma.expect_eq(mem:sub(12, 4), rma.buffer(4, "i64"):iota(50):apply("sum", 3), "rget_accumulate applied")
    rma.expect_eq(ctx.seen_got, rma.buffer(4, "i64"):iota(100 + right), "rget's data")
    rma.expect_eq(ctx.seen_old, rma.buffer(4, "i64"):iota(50), "rget_accumulate's old values")
  end,
  teardown = function(ctx) ctx.win:free() end,
}
