#include "sim/DeviceParams.h"

namespace autopart {

double DeviceParams::peakFlops(const TypeTable &types, TypeId t) const {
  if (t == kNoType || peakFlopsByType.empty()) return peakFlopsDefault;
  TypeId e = types.isTensor(t) ? types.elementType(t) : t;
  if (e == kNoType) return peakFlopsDefault;
  auto it = peakFlopsByType.find(std::string(types.str(e)));
  return it == peakFlopsByType.end() ? peakFlopsDefault : it->second;
}

}  // namespace autopart
