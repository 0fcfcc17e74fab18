-- A script that does not parse: every rank must report it with file:line.
-- tests/e2e/foundation_test.cpp checks the file:line reported: keep the lines where they are.
return {
  run = function(ctx)
    local x = = 1
  end,
}
