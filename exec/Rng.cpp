#include "exec/Rng.h"

#include <stdexcept>

namespace autopart::exec {

namespace {

uint32_t rotl(uint32_t v, int d) { return (v << d) | (v >> (32 - d)); }
uint32_t lo32(uint64_t v) { return uint32_t(v); }
uint32_t hi32(uint64_t v) { return uint32_t(v >> 32); }
uint64_t join(uint32_t lo, uint32_t hi) { return uint64_t(lo) | (uint64_t(hi) << 32); }

int64_t product(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

uint64_t lowMask(int bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

// THREE_FRY: state = [key, counter]. 64-bit elements take one block each
// (counter + row-major index). Narrower elements: the shape is halved along
// its first even dimension (else its largest, rounded up); block p of the
// halved shape feeds elements 2h and 2h + 1 along that dimension.
RngBits threeFry(const std::vector<uint64_t> &state, const std::vector<int64_t> &shape, int bitWidth) {
  if (state.size() != 2) throw std::runtime_error("THREE_FRY needs a state of 2 ui64 words");
  std::array<uint32_t, 2> key = {lo32(state[0]), hi32(state[0])};
  uint64_t counter = state[1];
  int64_t n = product(shape);
  RngBits out;
  out.bits.resize(size_t(n));
  if (bitWidth == 64) {
    for (int64_t i = 0; i < n; ++i) {
      uint64_t c = counter + uint64_t(i);
      std::array<uint32_t, 2> w = threefry2x32(key, {lo32(c), hi32(c)});
      out.bits[size_t(i)] = join(w[0], w[1]);
    }
    out.state = {state[0], counter + uint64_t(n)};
    return out;
  }
  uint64_t mask = lowMask(bitWidth);
  if (shape.empty()) {
    std::array<uint32_t, 2> w = threefry2x32(key, {lo32(counter), hi32(counter)});
    out.bits[0] = w[0] & mask;
    out.state = {state[0], counter + 1};
    return out;
  }
  size_t split = shape.size();
  for (size_t d = 0; d < shape.size() && split == shape.size(); ++d)
    if (shape[d] % 2 == 0) split = d;
  if (split == shape.size()) {
    split = 0;
    for (size_t d = 1; d < shape.size(); ++d)
      if (shape[d] > shape[split]) split = d;
  }
  std::vector<int64_t> half = shape;
  half[split] = (shape[split] + 1) / 2;
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < split; ++d) outer *= shape[d];
  for (size_t d = split + 1; d < shape.size(); ++d) inner *= shape[d];
  int64_t full = shape[split], halfLen = half[split];
  // Block (o, h, i) of the halved shape -> elements (o, 2h + c, i), c = 0, 1.
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t h = 0; h < halfLen; ++h)
      for (int64_t i = 0; i < inner; ++i) {
        uint64_t c = counter + uint64_t((o * halfLen + h) * inner + i);
        std::array<uint32_t, 2> w = threefry2x32(key, {lo32(c), hi32(c)});
        for (int64_t k = 0; k < 2 && 2 * h + k < full; ++k)
          out.bits[size_t((o * full + 2 * h + k) * inner + i)] = w[size_t(k)] & mask;
      }
  out.state = {state[0], counter + uint64_t(product(half))};
  return out;
}

// PHILOX: state = [key, lo] (the counter's high word is then the key) or
// [key, lo, hi]. Block i encrypts the 128-bit counter + i; its four words
// are elements 4i..4i+3 (64-bit elements: words 0|1 and 2|3 for 2i, 2i+1).
RngBits philox(const std::vector<uint64_t> &state, const std::vector<int64_t> &shape, int bitWidth) {
  if (state.size() != 2 && state.size() != 3) throw std::runtime_error("PHILOX needs a state of 2 or 3 ui64 words");
  std::array<uint32_t, 2> key = {lo32(state[0]), hi32(state[0])};
  uint64_t lo = state[1], hi = state.size() == 3 ? state[2] : state[0];
  int64_t n = product(shape);
  int64_t perBlock = bitWidth == 64 ? 2 : 4;
  int64_t blocks = (n + perBlock - 1) / perBlock;
  uint64_t mask = lowMask(bitWidth);
  RngBits out;
  out.bits.resize(size_t(n));
  for (int64_t b = 0; b < blocks; ++b) {
    uint64_t cLo = lo + uint64_t(b), cHi = cLo < lo ? hi + 1 : hi;
    std::array<uint32_t, 4> w = philox4x32({lo32(cLo), hi32(cLo), lo32(cHi), hi32(cHi)}, key);
    for (int64_t k = 0; k < perBlock && b * perBlock + k < n; ++k) {
      uint64_t v = bitWidth == 64 ? join(w[size_t(2 * k)], w[size_t(2 * k + 1)]) : w[size_t(k)];
      out.bits[size_t(b * perBlock + k)] = v & mask;
    }
  }
  uint64_t newLo = lo + uint64_t(blocks), newHi = newLo < lo ? hi + 1 : hi;
  out.state = state.size() == 3 ? std::vector<uint64_t>{state[0], newLo, newHi} : std::vector<uint64_t>{state[0], newLo};
  return out;
}

}  // namespace

std::array<uint32_t, 2> threefry2x32(std::array<uint32_t, 2> key, std::array<uint32_t, 2> counter) {
  static constexpr int kRot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t ks[3] = {key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1]};
  uint32_t x0 = counter[0] + ks[0], x1 = counter[1] + ks[1];
  // Five groups of four rounds; the key schedule is injected after each.
  for (uint32_t s = 1; s <= 5; ++s) {
    const int *rot = kRot + ((s - 1) % 2) * 4;
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = rotl(x1, rot[r]) ^ x0;
    }
    x0 += ks[s % 3];
    x1 += ks[(s + 1) % 3] + s;
  }
  return {x0, x1};
}

std::array<uint32_t, 4> philox4x32(std::array<uint32_t, 4> x, std::array<uint32_t, 2> key) {
  for (int round = 0; round < 10; ++round) {
    uint64_t p0 = uint64_t(x[0]) * 0xD2511F53u, p1 = uint64_t(x[2]) * 0xCD9E8D57u;
    x = {hi32(p1) ^ x[1] ^ key[0], lo32(p1), hi32(p0) ^ x[3] ^ key[1], lo32(p0)};
    key[0] += 0x9E3779B9u;
    key[1] += 0xBB67AE85u;
  }
  return x;
}

RngBits generateRngBits(RngAlgorithm alg, const std::vector<uint64_t> &state, const std::vector<int64_t> &shape,
                        int bitWidth) {
  if (bitWidth < 1 || bitWidth > 64 || (bitWidth > 32 && bitWidth != 64))
    throw std::runtime_error("no random bits for elements of " + std::to_string(bitWidth) + " bits");
  for (int64_t d : shape)
    if (d < 0) throw std::runtime_error("rng_bit_generator needs a static result shape");
  if (alg == RngAlgorithm::ThreeFry) return threeFry(state, shape, bitWidth);
  return philox(state, shape, bitWidth);
}

}  // namespace autopart::exec
