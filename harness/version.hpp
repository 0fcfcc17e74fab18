// version.hpp — what this build is: the project version and the git revision it was built
// from (recorded in every report's context so two reports can be compared honestly).
#pragma once

namespace harness {

const char* rmabench_version();
const char* git_revision();

}  // namespace harness
