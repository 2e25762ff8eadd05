#include "exec/Npy.h"

#include <fstream>
#include <iterator>

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

namespace {

uint64_t readLe(const std::string &s, size_t at, int bytes) {
  if (at + size_t(bytes) > s.size()) throw std::runtime_error("truncated file");
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(s[at + size_t(i)])) << (8 * i);
  return v;
}

// The value of `'key': ...` in an .npy header dictionary.
std::string headerField(const std::string &h, const std::string &key) {
  size_t at = h.find("'" + key + "'");
  if (at == std::string::npos) throw std::runtime_error("npy header without " + key);
  at = h.find(':', at) + 1;
  while (at < h.size() && h[at] == ' ') ++at;
  size_t end = h[at] == '(' ? h.find(')', at) + 1 : h.find_first_of(",}", at);
  return h.substr(at, end - at);
}

}  // namespace

TensorPtr tensorFromNpy(const std::string &bytes) {
  if (bytes.compare(0, 6, "\x93NUMPY") != 0) throw std::runtime_error("not an .npy file");
  int major = uint8_t(bytes[6]);
  size_t hlen = major == 1 ? readLe(bytes, 8, 2) : readLe(bytes, 8, 4);
  size_t start = (major == 1 ? 10 : 12) + hlen;
  std::string h = bytes.substr(major == 1 ? 10 : 12, hlen);
  std::string descr = headerField(h, "descr"), shapeText = headerField(h, "shape");
  if (headerField(h, "fortran_order").starts_with("True")) throw std::runtime_error("Fortran-order arrays are not supported");
  static const std::pair<const char *, const char *> kTypes[] = {
      {"'|b1'", "i1"}, {"'|i1'", "i8"}, {"'|u1'", "ui8"}, {"'<i2'", "i16"}, {"'<u2'", "ui16"}, {"'<i4'", "i32"},
      {"'<u4'", "ui32"}, {"'<i8'", "i64"}, {"'<u8'", "ui64"}, {"'<f2'", "f16"}, {"'<f4'", "f32"}, {"'<f8'", "f64"},
      {"'<c8'", "complex<f32>"}, {"'<c16'", "complex<f64>"}};
  std::string name;
  for (auto [d, n] : kTypes)
    if (descr == d) name = n;
  if (name.empty()) throw std::runtime_error("unsupported numpy dtype " + descr);
  std::vector<int64_t> shape;
  for (size_t i = 0; i < shapeText.size();) {
    if (!isdigit((unsigned char)shapeText[i])) {
      ++i;
      continue;
    }
    size_t used = 0;
    shape.push_back(std::stoll(shapeText.substr(i), &used));
    i += used;
  }
  TensorPtr t = makeTensor(dtypeByName(name), shape);
  size_t need = size_t(t->numElements()) * packedElementBytes(t->dtype);
  if (bytes.size() < start + need) throw std::runtime_error("truncated .npy data");
  unpackBits(*t, reinterpret_cast<const unsigned char *>(bytes.data()) + start, need);
  return t;
}

std::vector<std::pair<std::string, TensorPtr>> readNpz(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string z((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::pair<std::string, TensorPtr>> out;
  size_t at = 0;
  while (at + 4 <= z.size() && readLe(z, at, 4) == 0x04034b50) {
    uint64_t method = readLe(z, at + 8, 2), size = readLe(z, at + 18, 4);
    uint64_t nameLen = readLe(z, at + 26, 2), extraLen = readLe(z, at + 28, 2);
    std::string name = z.substr(at + 30, nameLen);
    if (method != 0) throw std::runtime_error(name + " is compressed (use np.savez, not np.savez_compressed)");
    size_t data = at + 30 + nameLen + extraLen;
    if (name.ends_with(".npy")) name.resize(name.size() - 4);
    out.push_back({name, tensorFromNpy(z.substr(data, size))});
    at = data + size;
  }
  if (out.empty()) throw std::runtime_error(path + " has no .npy members");
  return out;
}

}  // namespace autopart::exec
