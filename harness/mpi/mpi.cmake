# mpi.cmake — the MPI libraries rmabench can test as implementations under test
# (docs/conformance-mpi.md). MPICH and Open MPI cannot share a process, so each MPI found gets
# its own executables, compiled with that MPI's flags as its compiler wrapper states them:
#   rmabench-worker-<name>   the rank process `rmabench run --impl <name>` starts through the
#                            MPI's launcher (harness/mpi/mpi_worker_main.cpp)
#   mpi_impl_check_<name>    mpi_impl*.cpp checked on its own (a ctest test)
#   rmabench-calibrate-<name> a plain-C loop (harness/mpi/mpi_plain_loop.c) timed in a launch
#                            of its own, for use by hand; the worker times the same loops beside
#                            each replayed figure of `rmabench bench --impl <name>`. C, built with
#                            the flags of the MPI's C wrapper (mpicc beside mpicxx) where found
# The reference build never depends on an MPI: nothing here is required, and what is missing
# is recorded with the reason in the catalog `rmabench info` prints (mpi/mpi_catalog.hpp).
#
#   -DRMABENCH_MPI=OFF                                    build no MPI support
#   -DRMABENCH_MPI_CUSTOM=name:/path/mpicxx:/path/mpiexec an MPI of your own, beside the others
#
# Included from the top-level CMakeLists.txt after the harness, whose library it extends.

option(RMABENCH_MPI "Build workers for the MPI libraries found (MPICH, Open MPI)" ON)
set(RMABENCH_MPI_CUSTOM "" CACHE STRING
    "An MPI of your own to test: name:/path/to/mpicxx:/path/to/mpiexec")

# The MPI worker runs the harness's case runner on an impl::Implementation; it can be built once
# the worker takes one (worker/case_runner.hpp names impl::Implementation).
file(STRINGS ${PROJECT_SOURCE_DIR}/harness/worker/case_runner.hpp _rmabench_worker_seam
     REGEX "impl::Implementation")
if(_rmabench_worker_seam)
  set(_rmabench_worker_ready TRUE)
else()
  set(_rmabench_worker_ready FALSE)
endif()

set(_rmabench_mpi_catalog "")
# The plain-C loops are C (no harness, no C++ runtime between the loop and MPI).
if(RMABENCH_MPI)
  enable_language(C)
endif()

# The rank side of the MPI path and the launcher check: no <mpi.h>, built once for all MPIs.
add_library(rmabench_mpi_rank STATIC ${PROJECT_SOURCE_DIR}/harness/mpi/mpi_rank.cpp)
target_link_libraries(rmabench_mpi_rank PUBLIC rmabench_harness PRIVATE rmabench_options)
add_executable(mpi_launch_check ${PROJECT_SOURCE_DIR}/harness/mpi/mpi_launch_check.cpp)
target_link_libraries(mpi_launch_check PRIVATE rmabench_harness rmabench_options)

# One catalog entry: {name, built, wrapper, launcher, launcher kind, worker file, why missing}.
function(_rmabench_mpi_entry name built wrapper launcher kind worker missing)
  set(_line "    {\"${name}\", ${built}, \"${wrapper}\", \"${launcher}\", \"${kind}\", \"${worker}\", \"${missing}\"},\n")
  set(_rmabench_mpi_catalog "${_rmabench_mpi_catalog}${_line}" PARENT_SCOPE)
endfunction()

# Asks a compiler wrapper for its flags: Open MPI's --showme:*, else MPICH's -compile_info /
# -link_info (which print the whole command line; the compiler word is dropped).
function(_rmabench_mpi_flags wrapper out_incs out_defs out_copts out_link out_libs)
  set(_words "")
  execute_process(COMMAND ${wrapper} --showme:compile OUTPUT_VARIABLE _c RESULT_VARIABLE _rc
                  ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_rc EQUAL 0)
    execute_process(COMMAND ${wrapper} --showme:link OUTPUT_VARIABLE _l
                    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(_text "${_c} ${_l}")
  else()
    execute_process(COMMAND ${wrapper} -compile_info OUTPUT_VARIABLE _c RESULT_VARIABLE _rc
                    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    execute_process(COMMAND ${wrapper} -link_info OUTPUT_VARIABLE _l
                    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(_text "${_c} ${_l}")
  endif()
  separate_arguments(_words UNIX_COMMAND "${_text}")
  set(_incs "")
  set(_defs "")
  set(_copts "")
  set(_link "")
  set(_libs "")
  set(_next "")
  foreach(_w IN LISTS _words)
    if(_next STREQUAL "inc")
      list(APPEND _incs "${_w}")
      set(_next "")
    elseif(_w STREQUAL "-I")
      set(_next "inc")
    elseif(_w MATCHES "^-I(.+)")
      list(APPEND _incs "${CMAKE_MATCH_1}")
    elseif(_w MATCHES "^-D(.+)")
      list(APPEND _defs "${CMAKE_MATCH_1}")
    elseif(_w STREQUAL "-pthread")
      list(APPEND _copts "-pthread")
      list(APPEND _link "-pthread")
    elseif(_w MATCHES "^-(L|Wl,)")
      list(APPEND _link "${_w}")
    elseif(_w MATCHES "^-l" OR _w MATCHES "\\.(so|a)(\\.[0-9.]+)?$")
      # Libraries go after the objects on the link line, not among the options.
      list(APPEND _libs "${_w}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _incs)
  list(REMOVE_DUPLICATES _link)
  set(${out_incs} "${_incs}" PARENT_SCOPE)
  set(${out_defs} "${_defs}" PARENT_SCOPE)
  set(${out_copts} "${_copts}" PARENT_SCOPE)
  set(${out_link} "${_link}" PARENT_SCOPE)
  set(${out_libs} "${_libs}" PARENT_SCOPE)
endfunction()

# The plain-C loops (mpi_plain_loop.c, the library rmabench_mpi_plain_<name> the worker links)
# and rmabench-calibrate-<name>: C compiled with the flags the MPI's C wrapper states (mpicc
# where mpicxx is: mpicxx.mpich -> mpicc.mpich), else the C++ wrapper's, which name the same
# library.
function(_rmabench_add_plain_loops name cxx_wrapper)
  string(REPLACE "mpicxx" "mpicc" _cw "${cxx_wrapper}")
  if(NOT _cw STREQUAL cxx_wrapper AND EXISTS "${_cw}")
    _rmabench_mpi_flags("${_cw}" _incs _defs _copts _link _libs)
  else()
    _rmabench_mpi_flags("${cxx_wrapper}" _incs _defs _copts _link _libs)
  endif()
  set(_l rmabench_mpi_plain_${name})
  add_library(${_l} STATIC ${PROJECT_SOURCE_DIR}/harness/mpi/mpi_plain_loop.c)
  target_include_directories(${_l} SYSTEM PUBLIC ${_incs})
  target_include_directories(${_l} PUBLIC ${PROJECT_SOURCE_DIR}/harness/mpi)
  target_compile_definitions(${_l} PUBLIC ${_defs})
  # rmabench_options carries C++-only warnings: the C code states its own.
  target_compile_options(${_l} PRIVATE ${_copts} -Wall -Wextra -Wpedantic -Wshadow)
  target_link_options(${_l} PUBLIC ${_link})
  target_link_libraries(${_l} PUBLIC ${_libs})
  set_target_properties(${_l} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                        POSITION_INDEPENDENT_CODE ON)
  set(_t rmabench-calibrate-${name})
  add_executable(${_t} ${PROJECT_SOURCE_DIR}/harness/mpi/mpi_calibrate.c)
  target_compile_options(${_t} PRIVATE ${_copts} -Wall -Wextra -Wpedantic -Wshadow)
  target_link_libraries(${_t} PRIVATE ${_l})
  set_target_properties(${_t} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                        RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
  add_dependencies(rmabench ${_t})
endfunction()

# Builds the support for one MPI, or records why it is not built.
function(rmabench_add_mpi name wrapper launcher install_hint)
  set(_worker "rmabench-worker-${name}")
  if(NOT RMABENCH_MPI)
    _rmabench_mpi_entry(${name} false "" "" "" "" "not built: RMABENCH_MPI=OFF")
    set(_rmabench_mpi_catalog "${_rmabench_mpi_catalog}" PARENT_SCOPE)
    return()
  endif()
  find_program(_w_${name} NAMES ${wrapper} NO_CACHE)
  find_program(_l_${name} NAMES ${launcher} NO_CACHE)
  if(NOT _w_${name} OR NOT _l_${name})
    set(_what "")
    if(NOT _w_${name})
      set(_what "${wrapper}")
    endif()
    if(NOT _l_${name})
      string(STRIP "${_what} ${launcher}" _what)
    endif()
    _rmabench_mpi_entry(${name} false "" "" "" ""
                        "not built: ${_what} not found at configure time${install_hint}")
    set(_rmabench_mpi_catalog "${_rmabench_mpi_catalog}" PARENT_SCOPE)
    message(STATUS "rmabench: MPI ${name}: ${_what} not found, not built")
    return()
  endif()
  set(_wp "${_w_${name}}")
  set(_lp "${_l_${name}}")
  _rmabench_mpi_flags("${_wp}" _incs _defs _copts _link _libs)
  if(NOT _incs AND NOT _libs)
    _rmabench_mpi_entry(${name} false "${_wp}" "${_lp}" "" ""
                        "not built: ${_wp} states no compile or link flags")
    set(_rmabench_mpi_catalog "${_rmabench_mpi_catalog}" PARENT_SCOPE)
    return()
  endif()
  # How the launcher takes environment variables for the ranks.
  execute_process(COMMAND ${_lp} --version OUTPUT_VARIABLE _v ERROR_VARIABLE _ve
                  RESULT_VARIABLE _vrc TIMEOUT 20)
  if("${_v}${_ve}" MATCHES "Open MPI|Open RTE|OpenRTE")
    set(_kind "openmpi")
  elseif("${_v}${_ve}" MATCHES "HYDRA|Hydra")
    set(_kind "hydra")
  else()
    set(_kind "generic")
  endif()

  add_library(rmabench_mpi_${name} INTERFACE)
  target_include_directories(rmabench_mpi_${name} SYSTEM INTERFACE ${_incs})
  target_compile_definitions(rmabench_mpi_${name} INTERFACE ${_defs})
  target_compile_options(rmabench_mpi_${name} INTERFACE ${_copts})
  target_link_options(rmabench_mpi_${name} INTERFACE ${_link})
  target_link_libraries(rmabench_mpi_${name} INTERFACE ${_libs})

  # The implementation under test on this MPI: every file of harness/mpi/ that includes <mpi.h>
  # (the C loops in a library of their own, rmabench_mpi_plain_<name>, for their C flags).
  set(_src ${PROJECT_SOURCE_DIR}/harness/mpi)
  _rmabench_add_plain_loops(${name} "${_wp}")
  add_library(rmabench_mpi_impl_${name} STATIC ${_src}/mpi_impl.cpp ${_src}/mpi_impl_window.cpp
              ${_src}/mpi_impl_state.cpp ${_src}/mpi_impl_plain.cpp ${_src}/mpi_types.cpp)
  target_include_directories(rmabench_mpi_impl_${name} PUBLIC ${PROJECT_SOURCE_DIR}/harness)
  target_link_libraries(rmabench_mpi_impl_${name} PUBLIC rma rmabench_mpi_${name}
                        PRIVATE rmabench_mpi_plain_${name} rmabench_options)

  add_executable(mpi_impl_check_${name} ${PROJECT_SOURCE_DIR}/harness/mpi/mpi_impl_check.cpp)
  target_link_libraries(mpi_impl_check_${name} PRIVATE rmabench_mpi_impl_${name} rmabench_options)
  set(_extra "")
  if(_kind STREQUAL "openmpi")
    # Open MPI 4.1.4's default one-sided component (rdma) crashes in MPI_Compare_and_swap
    # (docs/conformance-mpi.md, lua_scripts/mpi/): the check runs on the components that work.
    set(_extra --oversubscribe --allow-run-as-root --mca osc sm,pt2pt)
  endif()
  add_test(NAME mpi_impl_check_${name}
           COMMAND ${_lp} ${_extra} -n 2 $<TARGET_FILE:mpi_impl_check_${name}>)
  set_tests_properties(mpi_impl_check_${name} PROPERTIES TIMEOUT 120 RUN_SERIAL TRUE LABELS mpi)

  # The launcher's MPI path with a probe for a worker: pass, deadlock, crash, cleanup.
  add_executable(mpi_launch_probe_${name} ${PROJECT_SOURCE_DIR}/harness/mpi/mpi_launch_probe.cpp)
  target_link_libraries(mpi_launch_probe_${name} PRIVATE rmabench_mpi_rank rmabench_mpi_impl_${name}
                        rmabench_options)
  add_test(NAME mpi_launch_check_${name}
           COMMAND mpi_launch_check ${name} $<TARGET_FILE:mpi_launch_probe_${name}>)
  set_tests_properties(mpi_launch_check_${name} PROPERTIES TIMEOUT 300 RUN_SERIAL TRUE LABELS mpi)

  if(_rmabench_worker_ready)
    add_executable(${_worker} ${PROJECT_SOURCE_DIR}/harness/mpi/mpi_worker_main.cpp)
    target_link_libraries(${_worker} PRIVATE rmabench_mpi_rank rmabench_harness
                          rmabench_mpi_impl_${name} rmabench_options)
    set_target_properties(${_worker} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
    # `rmabench run --impl <name>` needs its worker: building rmabench builds it.
    add_dependencies(rmabench ${_worker})
    # Installed where rmabench looks for them (harness/install_layout.hpp, libexec_dir).
    install(TARGETS ${_worker} rmabench-calibrate-${name} RUNTIME DESTINATION libexec/rmabench)
    _rmabench_mpi_entry(${name} true "${_wp}" "${_lp}" "${_kind}" "${_worker}" "")
    message(STATUS "rmabench: MPI ${name}: ${_wp}, ${_lp} (${_kind}): ${_worker}")
  else()
    _rmabench_mpi_entry(${name} false "${_wp}" "${_lp}" "${_kind}" ""
                        "not built: the harness worker does not run on impl::Implementation yet")
    message(STATUS "rmabench: MPI ${name}: ${_wp} found; worker waits for the Implementation seam")
  endif()
  set(_rmabench_mpi_catalog "${_rmabench_mpi_catalog}" PARENT_SCOPE)
endfunction()

rmabench_add_mpi(mpich mpicxx.mpich mpiexec.mpich " (Debian: apt-get install mpich libmpich-dev)")
rmabench_add_mpi(openmpi mpicxx.openmpi mpirun.openmpi
                 " (Debian: apt-get install openmpi-bin libopenmpi-dev)")
if(RMABENCH_MPI_CUSTOM)
  string(REPLACE ":" ";" _custom "${RMABENCH_MPI_CUSTOM}")
  list(LENGTH _custom _n)
  if(NOT _n EQUAL 3)
    message(FATAL_ERROR "RMABENCH_MPI_CUSTOM=${RMABENCH_MPI_CUSTOM}: expected name:/path/to/mpicxx:/path/to/mpiexec")
  endif()
  list(GET _custom 0 _cname)
  list(GET _custom 1 _cwrapper)
  list(GET _custom 2 _claunch)
  if(NOT _cname MATCHES "^[a-z][a-z0-9_-]*$" OR _cname STREQUAL "ref")
    message(FATAL_ERROR "RMABENCH_MPI_CUSTOM: name '${_cname}': lower-case letters, digits, - and _, not 'ref'")
  endif()
  rmabench_add_mpi(${_cname} ${_cwrapper} ${_claunch} "")
endif()

configure_file(${PROJECT_SOURCE_DIR}/harness/mpi/mpi_catalog.cpp.in
               ${PROJECT_BINARY_DIR}/harness/mpi_catalog.cpp @ONLY)
target_sources(rmabench_harness PRIVATE ${PROJECT_BINARY_DIR}/harness/mpi_catalog.cpp)
