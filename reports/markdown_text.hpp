// reports/markdown_text.hpp — text made safe to put in GitHub-flavored Markdown, shared by
// the Markdown report and the gate's Markdown diff so both escape the same way.
//
//   out << "| " << md_code(c.id) << " | " << md_inline(message) << " |\n";
#pragma once

#include <string>
#include <string_view>

namespace reports {

// Inline text: backslash-escapes what Markdown (and GitHub's tables and math) would read
// as markup; a line break becomes <br>, so a multi-line message stays in its cell or item.
std::string md_inline(std::string_view s);

// A code span that survives any content (the fence is longer than any backtick run inside;
// a pipe is escaped, as GitHub splits table cells on it even in code). "" for "".
std::string md_code(std::string_view s);

}  // namespace reports
