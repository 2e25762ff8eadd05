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

}  // namespace autopart
