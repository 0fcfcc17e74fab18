// suite_hash.cpp — a suite's content hash (see the header). FNV-1a: cheap, dependency-free,
// and enough to tell two versions of a suite apart (it is no protection against forgery).
#include "suite/suite_hash.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "suite/usage_error.hpp"

namespace harness::suite {
namespace {

void mix(std::uint64_t& h, const std::string& bytes) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  h ^= 0xff;  // a separator, so "ab"+"c" and "a"+"bc" differ
  h *= 0x100000001b3ULL;
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(path + ": cannot read it to hash the suite");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

std::string suite_hash(const std::string& manifest,
                       const std::map<std::string, ScriptInfo>& scripts) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  mix(h, bytes_of(manifest));
  std::map<std::string, std::string> by_name;  // ordered by name, not by where the files lie
  for (const auto& [path, info] : scripts) by_name[script_stem(path)] = path;
  for (const auto& [name, path] : by_name) {
    mix(h, name);
    mix(h, bytes_of(path));
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::string("fnv1a64:") + hex;
}

}  // namespace harness::suite
