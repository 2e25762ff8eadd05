#include "tools/LoadModule.h"

#include <iostream>

#include "ir/Parser.h"

namespace autopart {

std::unique_ptr<Module> loadModule(const std::string &path) {
  std::string text, err;
  if (!readFile(path, text, &err)) {
    std::cerr << "autopart: error: " << err << "\n";
    return nullptr;
  }
  ParseError perr;
  std::unique_ptr<Module> m = parseModule(std::move(text), path == "-" ? "<stdin>" : path, &perr);
  if (!m) std::cerr << perr.full << "\n";
  return m;
}

}  // namespace autopart
