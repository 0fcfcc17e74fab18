# Install.cmake — what `cmake --install` puts under the prefix, and the Debian package CPack
# makes of it (docs/install.md). The layout is fixed, because rmabench finds its parts relative
# to its own executable (harness/install_layout.hpp), so the tree can be moved anywhere:
#   bin/rmabench, libexec/rmabench/ (the MPI workers: harness/mpi/mpi.cmake),
#   share/rmabench/{lua_scripts,suites}, share/doc/rmabench/, share/man/man1/rmabench.1,
#   share/bash-completion/completions/rmabench

install(TARGETS rmabench RUNTIME DESTINATION bin)
install(DIRECTORY lua_scripts suites DESTINATION share/rmabench)
install(FILES README.md DESTINATION share/doc/rmabench)
install(DIRECTORY docs/ DESTINATION share/doc/rmabench)
install(FILES ${PROJECT_BINARY_DIR}/rmabench.1 DESTINATION share/man/man1)
install(FILES ${PROJECT_BINARY_DIR}/rmabench.bash
        DESTINATION share/bash-completion/completions RENAME rmabench)

# The build tree mirrors share/rmabench with links to the sources, so ./build/rmabench finds
# suites and patterns by name as an installed one does, with no source path compiled in.
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/share/rmabench)
foreach(_d lua_scripts suites)
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${_d} ${PROJECT_BINARY_DIR}/share/rmabench/${_d} SYMBOLIC)
endforeach()

# `cpack -G DEB` (or the `package` target) in the build directory: rmabench_<version>_<arch>.deb,
# its dependencies computed from the binaries (dpkg-shlibdeps, from dpkg-dev), the MPI workers in
# it when they were built.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rmabench)
set(CPACK_PACKAGE_CONTACT "rmabench maintainers <rmabench@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "conformance and benchmark suite for MPI-style one-sided communication (RMA)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
include(CPack)
