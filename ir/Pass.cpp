#include "ir/Pass.h"

#include <cstdlib>

namespace autopart {

static std::map<std::string, PassInfo> &registry() {
  static std::map<std::string, PassInfo> r;
  return r;
}

PassRegistration::PassRegistration(std::string name, std::string description, PassFn fn,
                                   std::vector<PassOptionSpec> options) {
  PassInfo info{name, std::move(description), std::move(fn), std::move(options)};
  registry()[name] = std::move(info);
}

namespace {

bool isBoolText(const std::string &v) { return v.empty() || v == "true" || v == "false" || v == "1" || v == "0"; }

bool isIntText(const std::string &v) {
  size_t i = !v.empty() && (v[0] == '-' || v[0] == '+') ? 1 : 0;
  if (i == v.size()) return false;
  for (; i < v.size(); ++i)
    if (v[i] < '0' || v[i] > '9') return false;
  return true;
}

bool isChoice(const std::string &type, const std::string &v) {
  for (size_t start = 0; start <= type.size();) {
    size_t bar = type.find('|', start);
    if (bar == std::string::npos) bar = type.size();
    if (type.compare(start, bar - start, v) == 0) return true;
    start = bar + 1;
  }
  return false;
}

}  // namespace

bool checkPassOptions(const PassInfo &pass, const PassOptions &o, Diagnostics &diags) {
  bool takesList = false;
  for (const PassOptionSpec &spec : pass.options) takesList = takesList || spec.type == "list";
  bool ok = true;
  for (const auto &[key, value] : o.values) {
    const PassOptionSpec *spec = nullptr;
    for (const PassOptionSpec &s : pass.options)
      if (s.name == key) spec = &s;
    if (!spec) {
      if (takesList && value.empty()) continue;  // a bare word of a list option
      std::string known;
      for (const PassOptionSpec &s : pass.options) known += (known.empty() ? "" : ", ") + s.name;
      diags.error(pass.name + ": unknown option '" + key + "'" +
                  (known.empty() ? std::string(" (the pass takes no options)") : "; it takes " + known));
      ok = false;
      continue;
    }
    std::string expected;
    if (spec->type == "bool" && !isBoolText(value)) expected = "true or false";
    if (spec->type == "int" && !isIntText(value)) expected = "an integer";
    if (spec->type.find('|') != std::string::npos && !isChoice(spec->type, value)) expected = "one of " + spec->type;
    if (!expected.empty()) {
      diags.error(pass.name + ": option '" + key + "' takes " + expected + ", not '" + value + "'");
      ok = false;
    }
  }
  return ok;
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
