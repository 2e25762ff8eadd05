#include "exec/Npy.h"

#include <fstream>

namespace autopart::exec {
namespace {

std::string descr(const DType &d) {
  if (d.isBool()) return "|b1";
  if (d.name == "f16") return "<f2";
  if (d.isNarrowFloat() || d.storage == Storage::F32) return "<f4";
  switch (d.storage) {
    case Storage::I8: return "|i1";
    case Storage::U8: return "|u1";
    case Storage::I16: return "<i2";
    case Storage::U16: return "<u2";
    case Storage::I32: return "<i4";
    case Storage::U32: return "<u4";
    case Storage::I64: return "<i8";
    case Storage::U64: return "<u8";
    case Storage::F64: return "<f8";
    case Storage::C64: return "<c8";
    case Storage::C128: return "<c16";
    default: return "|V1";
  }
}

uint32_t crc32(const std::string &s) {
  uint32_t c = 0xffffffffu;
  for (unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
  }
  return ~c;
}

void le(std::string &out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += char((v >> (8 * i)) & 0xff);
}

}  // namespace

std::string npyBytes(const Tensor &t) {
  std::string shape = "(";
  for (int64_t d : t.shape) shape += std::to_string(d) + ", ";
  if (t.shape.size() > 1) shape.resize(shape.size() - 2);
  else if (t.shape.size() == 1) shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = "{'descr': '" + descr(t.dtype) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  le(out, header.size(), 2);
  out += header;
  if (t.dtype.name == "f16") {
    std::vector<unsigned char> raw = packBits(t);
    out.append(raw.begin(), raw.end());
  } else {
    out.append(t.bytes.begin(), t.bytes.end());
  }
  return out;
}

bool writeNpz(const std::string &path, const std::vector<std::pair<std::string, TensorPtr>> &members) {
  std::string zip, central;
  uint16_t count = 0;
  for (const auto &[name, t] : members) {
    std::string file = name + ".npy", data = npyBytes(*t);
    uint32_t crc = crc32(data), offset = uint32_t(zip.size());
    le(zip, 0x04034b50, 4);
    le(zip, 20, 2), le(zip, 0, 2), le(zip, 0, 2), le(zip, 0, 2), le(zip, 0x21, 2);
    le(zip, crc, 4), le(zip, data.size(), 4), le(zip, data.size(), 4);
    le(zip, file.size(), 2), le(zip, 0, 2);
    zip += file;
    zip += data;
    le(central, 0x02014b50, 4);
    le(central, 20, 2), le(central, 20, 2), le(central, 0, 2), le(central, 0, 2), le(central, 0, 2),
        le(central, 0x21, 2);
    le(central, crc, 4), le(central, data.size(), 4), le(central, data.size(), 4);
    le(central, file.size(), 2), le(central, 0, 2), le(central, 0, 2), le(central, 0, 2), le(central, 0, 2);
    le(central, 0, 4), le(central, offset, 4);
    central += file;
    ++count;
  }
  uint32_t centralOffset = uint32_t(zip.size());
  zip += central;
  le(zip, 0x06054b50, 4);
  le(zip, 0, 2), le(zip, 0, 2), le(zip, count, 2), le(zip, count, 2);
  le(zip, central.size(), 4), le(zip, centralOffset, 4), le(zip, 0, 2);
  std::ofstream os(path, std::ios::binary);
  os << zip;
  return bool(os);
}

}  // namespace autopart::exec
