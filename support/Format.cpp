#include "support/Format.h"

#include <iomanip>
#include <sstream>

namespace autopart {

std::string formatSeconds(double s) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(3);
  if (s >= 1)
    o << s << " s";
  else if (s >= 1e-3)
    o << s * 1e3 << " ms";
  else
    o << s * 1e6 << " us";
  return o.str();
}

std::string formatBytes(double b) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  std::ostringstream o;
  o << std::fixed << std::setprecision(u ? 2 : 0) << b << " " << units[u];
  return o.str();
}

std::string formatGiB(double b) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(2) << b / (1024.0 * 1024 * 1024) << " GiB";
  return o.str();
}

}  // namespace autopart
