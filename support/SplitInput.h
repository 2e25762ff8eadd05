// The `-split-input-file` convention of MLIR's test tools: a file holds
// several independent modules separated by lines `// -----`. Each chunk is
// padded with the newlines before it, so a diagnostic in chunk 2 still names
// its line in the whole file:
//
//   "a\n// -----\nb\n"  ->  {"a\n", "\n\nb\n"}
#pragma once

#include <string>
#include <vector>

namespace autopart {

std::vector<std::string> splitInputFile(const std::string &text);

}  // namespace autopart
