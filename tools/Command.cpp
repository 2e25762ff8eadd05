#include "tools/Command.h"

namespace autopart {

std::vector<CommandInfo> &commandRegistry() {
  static std::vector<CommandInfo> r;
  return r;
}

}  // namespace autopart
