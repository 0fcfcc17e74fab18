-- For `rmabench bench`: the patterns whose message counts differ between the am protocols,
-- each under the default (fewest) and under ch3, in one run, so each ch3 figure is read as a
-- ratio to the default's measured at the same moment (docs/message-counts.md):
--   rmabench bench suites/protocols.lua --repetitions 5
-- lock + 3 puts + unlock: 4 messages against 6; post/start/put/complete/wait: 1 against 2;
-- lock-put-unlock: 2 under both (the singleton carries the lock either way).
return {
  name = "protocols",
  scripts_dir = "../lua_scripts",
  timeout = 120,
  backends = {"shm"},
  paths = {"am"},
  protocols = {"fewest", "ch3"},
  cases = {
    { script = "passive/lock_three_puts_unlock.lua", ranks = {2} },
    { script = "pscw/post_start_put.lua", ranks = {2} },
    { script = "passive/lock_put_unlock.lua", ranks = {2} },
  },
}
