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
  bool named(HloSharding &h);
  bool meshAxes(Mesh &mesh);
  bool axisRef(const Mesh &mesh, AxisRef &ref);
  bool axisList(const Mesh &mesh, std::vector<AxisRef> &out);
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
    if (head == "mesh") {
      h.kind = HloSharding::Kind::Named;
      if (!named(h) || !expect("}")) return std::nullopt;
      return h;
    }
    if (head == "single_device") {
      h.kind = HloSharding::Kind::Maximal;
      if (!expect("[") || !expect("device_id") || !expect("=")) return std::nullopt;
      std::optional<int64_t> d = integer();
      if (!d || !expect("]") || !expect("}")) return std::nullopt;
      h.device = *d;
      return h;
    }
    pos_ = at;
    return fail("expected replicated, maximal, manual, unknown or devices=");
  }
  if (!attributes(h) || !expect("}")) return std::nullopt;
  if (h.kind == HloSharding::Kind::Tiled) {
    int64_t dataDims = int64_t(h.tileDims.size()) - int64_t(h.subgroupTypes.size());
    if (dataDims < 0) return fail("more subgroup types than tile dimensions");
  }
  return h;
}

// `['x'=2,'y'=4]`: names unique, sizes positive.
bool Reader::meshAxes(Mesh &mesh) {
  if (!expect("[")) return false;
  if (consume("]")) return true;
  do {
    size_t at = (skipWs(), pos_);
    if (!expect("'")) return false;
    size_t end = s_.find('\'', pos_);
    if (end == std::string_view::npos) return failed("unterminated axis name");
    std::string name(s_.substr(pos_, end - pos_));
    pos_ = end + 1;
    if (name.empty() || mesh.axisIndex(name) >= 0) {
      pos_ = at;
      return failed(name.empty() ? "empty axis name" : "mesh axis '" + name + "' named twice");
    }
    if (!expect("=")) return false;
    size_t sizeAt = (skipWs(), pos_);
    std::optional<int64_t> size = integer();
    if (!size) return false;
    if (*size <= 0) {
      pos_ = sizeAt;
      return failed("mesh axis '" + name + "' of size 0");
    }
    mesh.axes.push_back({name, *size});
  } while (consume(","));
  return expect("]");
}

// `'x'` or `'x':(pre)size`, an axis of `mesh`.
bool Reader::axisRef(const Mesh &mesh, AxisRef &ref) {
  size_t at = (skipWs(), pos_);
  if (!expect("'")) return false;
  size_t end = s_.find('\'', pos_);
  if (end == std::string_view::npos) return failed("unterminated axis name");
  ref.name = std::string(s_.substr(pos_, end - pos_));
  pos_ = end + 1;
  int64_t size = mesh.axisSize(ref.name);
  if (mesh.axisIndex(ref.name) < 0) {
    pos_ = at;
    return failed("axis '" + ref.name + "' is not in the mesh");
  }
  if (!consume(":")) return true;
  if (!expect("(")) return false;
  std::optional<int64_t> pre = integer();
  if (!pre || !expect(")")) return false;
  std::optional<int64_t> sub = integer();
  if (!sub) return false;
  if (*pre <= 0 || *sub <= 1 || size % (*pre * *sub) != 0 || (*pre * *sub == size && *pre == 1)) {
    pos_ = at;
    return failed("sub-axis '" + ref.name + "':(" + std::to_string(*pre) + ")" + std::to_string(*sub) +
                  " does not split an axis of size " + std::to_string(size));
  }
  ref.preSize = *pre;
  ref.subSize = *sub;
  return true;
}

// `{'x', 'y':(1)2}`
bool Reader::axisList(const Mesh &mesh, std::vector<AxisRef> &out) {
  if (!expect("{")) return false;
  if (consume("}")) return true;
  do {
    AxisRef r;
    if (!axisRef(mesh, r)) return false;
    out.push_back(r);
  } while (consume(","));
  return expect("}");
}

// After `mesh`: `[axes]` then `, device_ids=(...)`, `, [dims]`,
// `, replicated` / `, manual` (the whole value), `, replicated={...}`,
// `, unreduced={...}`, `, manual={...}`, `, metadata={...}`.
bool Reader::named(HloSharding &h) {
  if (!meshAxes(h.mesh)) return false;
  bool dims = false;
  while (consume(",")) {
    skipWs();
    size_t at = pos_;
    if (pos_ < s_.size() && s_[pos_] == '[') {
      ++pos_;
      if (dims || h.wholeValue) return pos_ = at, failed("dimension shardings given twice");
      dims = true;
      if (consume("]")) continue;
      do {
        DimSharding d;
        if (!expect("{")) return false;
        if (!consume("}")) {
          do {
            if (consume("?")) {
              d.closed = false;
              break;
            }
            AxisRef r;
            if (!axisRef(h.mesh, r)) return false;
            d.axes.push_back(r);
          } while (consume(","));
          if (!expect("}")) return false;
        }
        h.named.dims.push_back(std::move(d));
      } while (consume(","));
      if (!expect("]")) return false;
      continue;
    }
    std::string key = word();
    bool assigned = consume("=");
    if (key == "device_ids" && assigned) {
      size_t idsAt = (skipWs(), pos_);
      std::optional<std::vector<int64_t>> ids = intList('(', ')');
      if (!ids) return false;
      std::vector<int64_t> sorted = *ids;
      std::sort(sorted.begin(), sorted.end());
      std::vector<int64_t> iota(sorted.size());
      std::iota(iota.begin(), iota.end(), 0);
      if (int64_t(ids->size()) != h.mesh.numDevices() || sorted != iota) {
        pos_ = idsAt;
        return failed("device_ids is no permutation of the mesh's " + std::to_string(h.mesh.numDevices()) +
                      " devices");
      }
      h.mesh.deviceIds = *ids;
    } else if ((key == "replicated" || key == "manual") && !assigned) {
      if (dims || h.wholeValue) return pos_ = at, failed("dimension shardings given twice");
      h.wholeValue = true;
      if (key == "manual")
        for (const MeshAxis &a : h.mesh.axes) h.manualAxes.push_back({a.name});
    } else if (key == "replicated" && assigned) {
      if (!axisList(h.mesh, h.named.replicated)) return false;
    } else if (key == "unreduced" && assigned) {
      if (!axisList(h.mesh, h.named.unreduced)) return false;
    } else if (key == "manual" && assigned) {
      if (!axisList(h.mesh, h.manualAxes)) return false;
    } else if (key == "metadata" && assigned) {
      pos_ = at;
      if (!attributes(h)) return false;
      if (!h.reductionKind.empty()) {
        h.named.unreducedKind = h.reductionKind;
        std::transform(h.named.unreducedKind.begin(), h.named.unreducedKind.end(), h.named.unreducedKind.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
      }
      return true;
    } else {
      pos_ = at;
      return failed(key.empty() ? "expected '}'" : "unknown V3 sharding attribute '" + key + "'");
    }
  }
  if (!dims && !h.wholeValue) return failed("expected the dimension shardings, replicated or manual");
  return true;
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
