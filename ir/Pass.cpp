#include "ir/Pass.h"

#include <cstdlib>

namespace autopart {

static std::map<std::string, PassInfo> &registry() {
  static std::map<std::string, PassInfo> r;
  return r;
}

PassRegistration::PassRegistration(std::string name, std::string description, PassFn fn) {
  PassInfo info{name, std::move(description), std::move(fn)};
  registry()[name] = std::move(info);
}

const PassInfo *lookupPass(const std::string &name) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : &it->second;
}

bool runPipelineStep(const std::string &pipeline, const std::string &step, Module &m, const PassOptions &o,
                     Diagnostics &diags) {
  const PassInfo *pass = lookupPass(step);
  if (!pass) {
    diags.error(pipeline + ": step '-" + step + "' is not part of this build");
    return false;
  }
  return pass->run(m, o, diags) && !diags.hasErrors();
}

std::vector<const PassInfo *> allPasses() {
  std::vector<const PassInfo *> out;
  for (auto &[_, info] : registry()) out.push_back(&info);
  return out;
}

bool PassOptions::getBool(const std::string &key, bool dflt) const {
  auto it = values.find(key);
  if (it == values.end()) return dflt;
  return it->second.empty() || it->second == "true" || it->second == "1";
}

int64_t PassOptions::getInt(const std::string &key, int64_t dflt) const {
  auto it = values.find(key);
  return it == values.end() ? dflt : std::strtoll(it->second.c_str(), nullptr, 10);
}

std::string PassOptions::getString(const std::string &key, const std::string &dflt) const {
  auto it = values.find(key);
  return it == values.end() ? dflt : it->second;
}

PassOptions PassOptions::parse(const std::string &text) {
  PassOptions opts;
  std::string s = text;
  if (s.size() >= 2 && s.front() == '{' && s.back() == '}') s = s.substr(1, s.size() - 2);
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == ',')) ++i;
    size_t start = i;
    int depth = 0;
    char quote = 0;  // a quoted value ('a, b') is one item, as MLIR reads it
    while (i < s.size() && (depth > 0 || quote || (s[i] != ' ' && s[i] != ','))) {
      if (quote) {
        if (s[i] == quote) quote = 0;
      } else if (s[i] == '\'' || s[i] == '"') {
        quote = s[i];
      } else if (s[i] == '{' || s[i] == '[') {
        ++depth;
      } else if (s[i] == '}' || s[i] == ']') {
        --depth;
      }
      ++i;
    }
    std::string item = s.substr(start, i - start);
    if (item.empty()) continue;
    size_t eq = item.find('=');
    if (eq == std::string::npos) {
      opts.values[item] = "";
      continue;
    }
    std::string value = item.substr(eq + 1);
    if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') && value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    opts.values[item.substr(0, eq)] = value;
  }
  return opts;
}

}  // namespace autopart
