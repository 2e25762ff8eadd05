#include "tools/MeshSpec.h"

#include "tools/Command.h"

namespace autopart {

std::optional<Mesh> resolveMesh(const Module &m, const std::string &meshFlag, const char *command,
                                std::string *meshName) {
  Diagnostics diags;
  std::optional<Mesh> mesh = resolveMesh(m, meshFlag, diags, meshName);
  if (!mesh) printDiagnostics(diags, std::string("autopart ") + command);
  return mesh;
}

}  // namespace autopart
