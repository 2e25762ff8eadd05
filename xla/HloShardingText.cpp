#include "xla/HloShardingText.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace autopart {

int64_t HloSharding::numTiles() const {
  int64_t n = 1;
  for (int64_t d : tileDims) n *= d;
  return n;
}

namespace {

class Reader {
public:
  Reader(std::string_view text, std::string *error, size_t *offset) : s_(text), error_(error), offset_(offset) {}

  std::optional<HloSharding> top() {
    std::optional<HloSharding> h = sharding();
    if (!h) return std::nullopt;
    skipWs();
    if (pos_ != s_.size()) return fail("unexpected text after the sharding");
    return h;
  }

private:
  std::nullopt_t fail(std::string message) {
    if (error_->empty()) {
      *error_ = std::move(message);
      *offset_ = pos_;
    }
    return std::nullopt;
  }
  bool failed(std::string message) {
    fail(std::move(message));
    return false;
  }
  void skipWs() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool consume(std::string_view word) {
    skipWs();
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool expect(std::string_view word) {
    if (consume(word)) return true;
    fail("expected '" + std::string(word) + "'");
    return false;
  }
  std::optional<int64_t> integer() {
    skipWs();
    size_t start = pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (start == pos_ || pos_ - start > 18) {
      pos_ = start;
      return fail("expected a non-negative integer");
    }
    return std::stoll(std::string(s_.substr(start, pos_ - start)));
  }
  // `[a,b,c]`
  std::optional<std::vector<int64_t>> intList(char open, char close) {
    std::vector<int64_t> out;
    if (!expect(std::string_view(&open, 1))) return std::nullopt;
    if (consume(std::string_view(&close, 1))) return out;
    do {
      std::optional<int64_t> v = integer();
      if (!v) return std::nullopt;
      out.push_back(*v);
    } while (consume(","));
    if (!expect(std::string_view(&close, 1))) return std::nullopt;
    return out;
  }
  std::string word() {
    skipWs();
    size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }
  // Skips a balanced `{...}` (metadata), honouring quoted strings.
  bool skipBraces(std::string *body) {
    skipWs();
    size_t start = pos_;
    if (!expect("{")) return false;
    int depth = 1;
    bool quoted = false;
    while (pos_ < s_.size() && depth > 0) {
      char c = s_[pos_++];
      if (quoted) {
        if (c == '\\') ++pos_;
        else if (c == '"') quoted = false;
      } else if (c == '"') {
        quoted = true;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      }
    }
    if (depth != 0) return failed("unterminated '{'");
    *body = std::string(s_.substr(start, pos_ - start));
    return true;
  }

  std::optional<HloSharding> sharding();
  bool tileAssignment(HloSharding &h);
  bool attributes(HloSharding &h);

  std::string_view s_;
  size_t pos_ = 0;
  std::string *error_;
  size_t *offset_;
};

std::optional<HloSharding> Reader::sharding() {
  HloSharding h;
  if (!expect("{")) return std::nullopt;
  skipWs();
  if (pos_ < s_.size() && s_[pos_] == '{') {
    h.kind = HloSharding::Kind::Tuple;
    do {
      std::optional<HloSharding> e = sharding();
      if (!e) return std::nullopt;
      h.elements.push_back(std::move(*e));
    } while (consume(","));
    if (!expect("}")) return std::nullopt;
    return h;
  }
  if (consume("}")) {  // `{}`: an empty tuple
    h.kind = HloSharding::Kind::Tuple;
    return h;
  }
  size_t at = pos_;
  std::string head = word();
  if (head == "replicated") {
    h.kind = HloSharding::Kind::Replicated;
  } else if (head == "manual") {
    h.kind = HloSharding::Kind::Manual;
  } else if (head == "unknown") {
    h.kind = HloSharding::Kind::Unknown;
  } else if (head == "maximal") {
    h.kind = HloSharding::Kind::Maximal;
    if (!expect("device") || !expect("=")) return std::nullopt;
    std::optional<int64_t> d = integer();
    if (!d) return std::nullopt;
    h.device = *d;
  } else if (head == "devices") {
    h.kind = HloSharding::Kind::Tiled;
    if (!expect("=") || !tileAssignment(h)) return std::nullopt;
  } else {
    pos_ = at;
    if (head == "mesh" || head == "single_device")
      return fail("HloSharding V3 text (`{mesh[...], ...}`) is not read by this import");
    return fail("expected replicated, maximal, manual, unknown or devices=");
  }
  if (!attributes(h) || !expect("}")) return std::nullopt;
  if (h.kind == HloSharding::Kind::Tiled) {
    int64_t dataDims = int64_t(h.tileDims.size()) - int64_t(h.subgroupTypes.size());
    if (dataDims < 0) return fail("more subgroup types than tile dimensions");
  }
  return h;
}

// `[d0,d1,...]` then `<=[r0,r1,...]` (optionally `T(p0,p1,...)`) or an
// explicit device list `a,b,c,...`.
bool Reader::tileAssignment(HloSharding &h) {
  size_t at = pos_;
  std::optional<std::vector<int64_t>> dims = intList('[', ']');
  if (!dims) return false;
  if (dims->empty()) return failed("empty tile assignment");
  h.tileDims = *dims;
  int64_t total = 1;
  for (int64_t d : h.tileDims) {
    if (d <= 0) {
      pos_ = at;
      return failed("tile dimension of size " + std::to_string(d));
    }
    total *= d;
    if (total > (int64_t(1) << 24)) {
      pos_ = at;
      return failed("tile assignment too large");
    }
  }
  if (consume("<=")) {
    size_t reshapeAt = pos_;
    std::optional<std::vector<int64_t>> reshape = intList('[', ']');
    if (!reshape) return false;
    int64_t n = 1;
    for (int64_t r : *reshape) n *= r;
    if (n != total || reshape->empty()) {
      pos_ = reshapeAt;
      return failed("iota of " + std::to_string(n) + " devices for a tile assignment of " +
                       std::to_string(total) + " tiles");
    }
    std::vector<int64_t> perm(reshape->size());
    std::iota(perm.begin(), perm.end(), 0);
    skipWs();
    if (pos_ < s_.size() && s_[pos_] == 'T') {
      ++pos_;
      size_t permAt = pos_;
      std::optional<std::vector<int64_t>> p = intList('(', ')');
      if (!p) return false;
      std::vector<int64_t> sorted = *p;
      std::sort(sorted.begin(), sorted.end());
      if (sorted != perm) {
        pos_ = permAt;
        return failed("transpose is not a permutation of the " + std::to_string(perm.size()) + " iota dims");
      }
      perm = *p;
    }
    // Device of transposed index t: the iota index with axes permuted back.
    std::vector<int64_t> strides(reshape->size(), 1);
    for (size_t k = reshape->size(); k-- > 1;) strides[k - 1] = strides[k] * (*reshape)[k];
    std::vector<int64_t> idx(perm.size(), 0);
    h.devices.reserve(size_t(total));
    for (int64_t t = 0; t < total; ++t) {
      int64_t dev = 0;
      for (size_t k = 0; k < perm.size(); ++k) dev += idx[k] * strides[size_t(perm[k])];
      h.devices.push_back(dev);
      for (size_t k = perm.size(); k-- > 0;) {
        if (++idx[k] < (*reshape)[size_t(perm[k])]) break;
        idx[k] = 0;
      }
    }
    return true;
  }
  size_t listAt = pos_;
  do {
    std::optional<int64_t> d = integer();
    if (!d) return false;
    h.devices.push_back(*d);
  } while (consume(","));
  if (int64_t(h.devices.size()) != total) {
    pos_ = listAt;
    return failed("tile assignment [" + std::to_string(h.tileDims.size()) + " dims] has " + std::to_string(total) +
                     " tiles but lists " + std::to_string(h.devices.size()) + " devices");
  }
  std::vector<int64_t> sorted = h.devices;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    pos_ = listAt;
    return failed("tile assignment lists a device twice");
  }
  return true;
}

// `last_tile_dim_replicate`, `last_tile_dims={...}`, `metadata={...}`.
bool Reader::attributes(HloSharding &h) {
  for (;;) {
    skipWs();
    if (pos_ < s_.size() && s_[pos_] == '}') return true;
    size_t at = pos_;
    std::string key = word();
    if (key == "last_tile_dim_replicate") {
      if (h.kind != HloSharding::Kind::Tiled) return failed("last_tile_dim_replicate without devices=");
      h.subgroupTypes = {"replicated"};
    } else if (key == "last_tile_dims") {
      if (h.kind != HloSharding::Kind::Tiled) return failed("last_tile_dims without devices=");
      if (!expect("=") || !expect("{")) return false;
      h.subgroupTypes.clear();
      do {
        size_t typeAt = pos_;
        std::string t = word();
        if (t != "replicated" && t != "manual" && t != "unreduced") {
          pos_ = typeAt;
          return failed("unknown subgroup type '" + t + "'");
        }
        h.subgroupTypes.push_back(t);
      } while (consume(","));
      if (!expect("}")) return false;
    } else if (key == "metadata") {
      std::string body;
      if (!expect("=") || !skipBraces(&body)) return false;
      // XLA writes the reduction of unreduced axes here.
      if (body.find("sdy::reduction_op") != std::string::npos) {
        size_t p = body.find("op_name=\"");
        if (p != std::string::npos) {
          size_t e = body.find('"', p + 9);
          std::string kind = body.substr(p + 9, e == std::string::npos ? std::string::npos : e - p - 9);
          if (kind != "SUM") h.reductionKind = kind;
        }
      }
    } else {
      pos_ = at;
      return failed(key.empty() ? "expected '}'" : "unknown sharding attribute '" + key + "'");
    }
  }
}

}  // namespace

std::optional<HloSharding> parseHloSharding(std::string_view text, std::string *error, size_t *errorOffset) {
  error->clear();
  *errorOffset = 0;
  return Reader(text, error, errorOffset).top();
}

}  // namespace autopart
