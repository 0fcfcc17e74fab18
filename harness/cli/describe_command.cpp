// `rmabench describe`: what a script declares, read without running any hook.
#include <iomanip>
#include <iostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "suite/script_info.hpp"

namespace harness::cli {

int describe_command(const std::string& script) {
  const suite::ScriptInfo info = suite::load_script_info(script);
  if (info.load_error) {
    std::cerr << "rmabench: " << *info.load_error << "\n";
    return kExitFailed;
  }
  std::cout << info.name << " (" << script << ")\n";
  if (!info.description.empty()) std::cout << "\n" << info.description << "\n";
  std::cout << "ranks: " << info.ranks << "\n";
  std::cout << "expect: " << suite::name(info.expect) << "\n";
  if (info.iterations > 1) std::cout << "iterations: " << info.iterations << "\n";
  std::cout << "hooks:";
  for (const auto& h : info.hooks) std::cout << " " << h;
  std::cout << "\nmessages: "
            << (info.messages == "none" ? "not declared" : "declared (" + info.messages + ")")
            << "\n";
  if (info.timeout) {
    std::cout << "timeout: " << info.timeout->base << " s";
    for (const auto& [name, s] : info.timeout->per_unit)
      std::cout << " + " << s << " s per unit of " << name;
    std::cout << " (--timeout or a suite entry's `timeout` replaces it)\n";
  }
  if (info.options.empty()) {
    std::cout << "options: none\n";
    return kExitOk;
  }
  std::cout << "options (set with -o name=value):\n";
  std::size_t w = 0;
  for (const auto& o : info.options) w = std::max(w, o.name.size());
  for (const auto& o : info.options)
    std::cout << "  " << std::left << std::setw(static_cast<int>(w)) << o.name << "  "
              << o.description << " (" << o.type << ", default " << o.default_value << ")\n";
  return kExitOk;
}

}  // namespace harness::cli
