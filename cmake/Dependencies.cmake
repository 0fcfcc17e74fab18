# Every dependency is a Debian package (ci/setup.sh installs them), found the ordinary way.
find_package(Threads REQUIRED)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)

find_package(PkgConfig REQUIRED)
# The C++ build of Lua: lua_error unwinds with an exception, so destructors of C++
# objects in binding frames run.  Its headers must be included without extern "C".
pkg_check_modules(LUA REQUIRED IMPORTED_TARGET lua5.4-c++)
pkg_check_modules(HWLOC REQUIRED IMPORTED_TARGET hwloc)
pkg_check_modules(LIBFABRIC REQUIRED IMPORTED_TARGET libfabric)
pkg_check_modules(PMIX REQUIRED IMPORTED_TARGET pmix)
