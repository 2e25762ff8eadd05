#include "support/AtomicFile.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace autopart {

bool writeFileAtomic(const std::string &path, const std::string &contents, Diagnostics &diags) {
  return writeFileAtomicWith(
      path,
      [&](std::ostream &os) {
        os.write(contents.data(), std::streamsize(contents.size()));
        return bool(os);
      },
      diags);
}

bool writeFileAtomicWith(const std::string &path,
                         const std::function<bool(std::ostream &)> &write, Diagnostics &diags) {
  if (path == "-") {
    bool ok = write(std::cout);
    std::cout.flush();
    return ok && bool(std::cout);
  }
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) {
      diags.error("cannot write '" + tmp + "'");
      return false;
    }
    bool ok = write(f);
    f.close();
    if (!ok || !f) {
      std::remove(tmp.c_str());
      // A writer that declined (its input was bad) has reported why itself.
      if (ok) diags.error("failed writing '" + tmp + "'");
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    diags.error("cannot rename to '" + path + "': " + ec.message());
    return false;
  }
  return true;
}

}  // namespace autopart
