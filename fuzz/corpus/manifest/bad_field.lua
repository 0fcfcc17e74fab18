return { scripts_dir = "lua_scripts", cases = { { script = "examples/hello.lua", rank = {2} } } }
