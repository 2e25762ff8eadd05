#include "export/ZeroConstant.h"

namespace autopart {

std::optional<std::string> zeroLiteral(const TypeTable &types, TypeId tensorType) {
  TypeId elementId = types.isTensor(tensorType) ? types.elementType(tensorType) : tensorType;
  if (elementId == kNoType) return std::nullopt;
  const TypeStorage &element = types.get(elementId);
  if (element.kind != TypeKind::Scalar) return std::nullopt;
  switch (element.scalarClass) {
  case ScalarClass::Float:
    return std::string("0.000000e+00");
  case ScalarClass::Complex:
    return std::string("(0.000000e+00,0.000000e+00)");
  case ScalarClass::Int:
  case ScalarClass::UInt:
  case ScalarClass::SignlessInt:
  case ScalarClass::Index:
    return element.bits == 1 ? std::string("false") : std::string("0");
  }
  return std::nullopt;
}

}  // namespace autopart
