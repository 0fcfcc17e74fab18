-- Differential random programs: program i of a run is made from (seed, i) by
-- lua_scripts/lib/random_gen.lua — windows of every flavor and disp_unit, epochs of every
-- kind with their asserts, every op × dtype, sizes from 0 to a few MiB — identically on
-- every rank; each rank issues its own ops and checks its fetched values and its window
-- memory against the sequential model (lib/random_model.lua, the oracle's arithmetic).
-- A mismatch fails the case naming the seed, the program, the configuration and the first
-- differing byte. Rerun one program with -o first=P -o programs=1; with -o shrink=true the
-- first failing program is reduced and written to -o out=FILE, a script for
-- lua_scripts/regressions/ that fails the same way under `rmabench run`.
-- Long run: rmabench run lua_scripts/random/programs.lua -n 3 --timeout 3600 \
--             -o seed=1 -o programs=10000
local gen = require("random_gen")
local P = require("random_program")
local shrink = require("random_shrink")

return {
  ranks = 2,
  -- The packets depend on the program (and on timing where locks are granted lazily):
  -- measured and reported, never gated.
  messages = "varies",
  -- 1000 programs on 3 ranks took 32 s (shm direct) to 77 s (fabric direct) on 2 cores,
  -- past the default 60 s: a fifth of a second each leaves room for a slower machine.
  timeout = { 60, programs = 0.2 },
  options = {
    seed = {"seed of the run: program i is made from (seed, i)", 1},
    programs = {"how many programs to run", 20},
    first = {"index of the first program", 0},
    shrink = {"reduce the first failing program and write it to `out`", false},
    out = {"file the shrunk program is written to", "shrunk_program.lua"},
    budget = {"most programs the shrinker runs", 400},
  },
  run = function()
    local o = rma.opt
    for i = o.first, o.first + o.programs - 1 do
      local prog = gen.program(o.seed, i, rma.size)
      local label = string.format("seed %d program %d [%s]", o.seed, i, P.config())
      local msg = P.run(prog, label)
      if msg then
        if o.shrink then
          local small, smsg, runs = shrink.shrink(prog, msg, label, o.budget)
          if rma.rank == 0 then
            shrink.write(o.out, small, smsg, string.format("seed %d program %d", o.seed, i))
          end
          rma.log(string.format("shrunk from %d to %d RMA calls in %d runs, written to %s",
                                P.call_count(prog), P.call_count(small), runs, o.out))
          msg = msg .. string.format(" (shrunk to %d RMA calls: %s)", P.call_count(small), o.out)
        end
        rma.expect(false, msg)
        return
      end
    end
    rma.metric("programs", o.programs)
  end,
}
