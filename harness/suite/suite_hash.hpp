// suite_hash.hpp — what identifies the suite a report ran, beyond its name: a hash of the
// manifest's bytes and of every script it expanded to (by its name below lua_scripts/), so two
// reports of "quick" from different pattern sets do not compare as the same suite.
#pragma once

#include <map>
#include <string>

#include "suite/script_info.hpp"

namespace harness::suite {

// "fnv1a64:<16 hex digits>" of the manifest and its scripts, independent of where they lie.
std::string suite_hash(const std::string& manifest,
                       const std::map<std::string, ScriptInfo>& scripts);

}  // namespace harness::suite
