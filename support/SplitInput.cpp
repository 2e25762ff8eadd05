#include "support/SplitInput.h"

#include <string_view>

namespace autopart {

std::vector<std::string> splitInputFile(const std::string &text) {
  std::vector<std::string> chunks;
  std::string cur;
  size_t lineNo = 0, chunkStartLine = 0, pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line(text.data() + pos, (nl == std::string::npos ? text.size() : nl) - pos);
    size_t k = line.find_first_not_of(" \t");
    if (k != std::string_view::npos && line.substr(k).starts_with("// -----")) {
      chunks.push_back(std::string(chunkStartLine, '\n') + cur);
      cur.clear();
      chunkStartLine = lineNo + 1;
    } else {
      cur.append(line);
      cur += '\n';
    }
    ++lineNo;
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  chunks.push_back(std::string(chunkStartLine, '\n') + cur);
  return chunks;
}

}  // namespace autopart
