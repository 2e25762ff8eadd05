#include "exec/ProbeStore.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace autopart::exec {

namespace {

// A file-name-safe spelling of a probe id ("probe/0" -> "probe_0"); the file
// counter in front keeps ids that sanitize alike apart.
std::string sanitize(const std::string &id) {
  std::string s = id;
  for (char &c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return s;
}

// Probe ids are written quoted with `"` doubled, so commas in ids survive.
std::string csvField(const std::string &s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + '"';
}

std::vector<std::string> csvSplit(const std::string &line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

}  // namespace

void ProbeStore::write(const std::string &id, const Tensor &t) {
  if (t.isTuple || t.isToken) throw std::runtime_error("interpreter.probe takes a tensor");
  if (dir_.empty()) {
    memoryBytes_ += t.bytes.size();
    if (memoryBytes_ > memoryLimit_)
      throw std::runtime_error("probe values exceed " + std::to_string(memoryLimit_) + " bytes in memory");
    memory_[id].push_back({t.typeString(), std::vector<uint8_t>(t.bytes.begin(), t.bytes.end())});
    return;
  }
  uint32_t iteration = iterations_[id]++;
  std::string file = std::to_string(files_++) + "_" + sanitize(id) + ".bin";
  std::ofstream out(std::filesystem::path(dir_) / file, std::ios::binary);
  out.write(reinterpret_cast<const char *>(t.bytes.data()), std::streamsize(t.bytes.size()));
  std::ofstream index(std::filesystem::path(dir_) / "index.csv", std::ios::app);
  index << csvField(id) << ',' << iteration << ',' << t.typeString() << ',' << file << '\n';
  if (!out || !index) throw std::runtime_error("cannot write probe '" + id + "' to " + dir_);
}

TensorPtr ProbeStore::read(const std::string &id, uint32_t iteration, const Tensor &like, std::string &why) const {
  if (dir_.empty()) {
    auto it = memory_.find(id);
    if (it == memory_.end() || iteration >= it->second.size()) {
      why = memory_.empty() ? "no probe has been written"
                            : "probe '" + id + "' has no iteration " + std::to_string(iteration);
      return nullptr;
    }
    const Recorded &r = it->second[iteration];
    if (r.type != like.typeString()) {
      why = "probe '" + id + "' iteration " + std::to_string(iteration) + " is " + r.type + ", expected " +
            like.typeString();
      return nullptr;
    }
    TensorPtr t = makeUninitialized(like.dtype, like.shape);
    std::copy(r.bytes.begin(), r.bytes.end(), t->bytes.begin());
    return t;
  }
  std::ifstream index(std::filesystem::path(dir_) / "index.csv");
  if (!index) {
    why = "no probe has been written";
    return nullptr;
  }
  std::string line;
  while (std::getline(index, line)) {
    std::vector<std::string> f = csvSplit(line);
    if (f.size() != 4 || f[0] != id || f[1] != std::to_string(iteration)) continue;
    if (f[2] != like.typeString()) {
      why = "probe '" + id + "' iteration " + f[1] + " is " + f[2] + ", expected " + like.typeString();
      return nullptr;
    }
    std::ifstream in(std::filesystem::path(dir_) / f[3], std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    TensorPtr t = makeUninitialized(like.dtype, like.shape);
    if (bytes.size() != t->bytes.size()) {
      why = "probe file " + f[3] + " holds " + std::to_string(bytes.size()) + " bytes, expected " +
            std::to_string(t->bytes.size());
      return nullptr;
    }
    std::copy(bytes.begin(), bytes.end(), t->bytes.begin());
    return t;
  }
  why = "probe '" + id + "' has no iteration " + std::to_string(iteration);
  return nullptr;
}

}  // namespace autopart::exec
