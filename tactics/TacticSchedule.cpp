#include "tactics/TacticSchedule.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "tactics/TacticRegistry.h"

namespace autopart {

const char *tacticKindName(TacticKind k) {
  switch (k) {
  case TacticKind::Manual: return "manual";
  case TacticKind::Named: return "named";
  case TacticKind::Auto: return "auto";
  }
  return "manual";
}

std::string tacticName(const Tactic &t) { return t.kind == TacticKind::Named ? t.name : tacticKindName(t.kind); }

namespace {

// `auto` and `manual` are kinds; any other name must be registered.
bool resolveName(const std::string &name, Tactic &t) {
  if (name == "auto") {
    t.kind = TacticKind::Auto;
    return true;
  }
  if (name == "manual") {
    t.kind = TacticKind::Manual;
    return true;
  }
  const TacticInfo *info = findTactic(name);
  if (!info) return false;
  t.kind = TacticKind::Named;
  t.name = info->name;
  return true;
}

std::string unknownTactic(const std::string &name) {
  return "unknown tactic '" + name + "' (registered: " + registeredTacticNames() +
         "; also auto, and manual tactics in a JSON/YAML file)";
}

bool finish(Tactic &t, const Mesh &mesh, std::string *error) {
  if (t.axes.empty()) {
    if (t.kind == TacticKind::Auto) {
      for (const MeshAxis &a : mesh.axes) t.axes.push_back(a.name);
    } else {
      // A manual tactic without an axis takes the data axis.
      const TacticInfo *info = t.kind == TacticKind::Named ? findTactic(t.name) : nullptr;
      std::string a = defaultAxisOn(info ? info->defaultAxis : dataAxis(), mesh);
      if (!a.empty()) t.axes.push_back(a);
    }
  }
  if (t.axes.empty()) {
    *error = "tactic '" + t.spelling + "' needs a mesh axis but the mesh has none";
    return false;
  }
  for (const std::string &a : t.axes)
    if (mesh.axisIndex(a) < 0) {
      *error = "tactic '" + t.spelling + "' names axis '" + a + "', which the mesh " + mesh.str() +
               " does not have";
      return false;
    }
  if (t.kind != TacticKind::Auto && t.axes.size() != 1) {
    *error = "tactic '" + t.spelling + "' takes exactly one axis";
    return false;
  }
  if (t.kind == TacticKind::Manual && t.inputs.empty()) {
    *error = "manual tactic '" + t.spelling + "' lists no inputs";
    return false;
  }
  return true;
}

std::optional<TacticSchedule> parseInline(const std::string &spec, const Mesh &mesh,
                                          std::string *error) {
  TacticSchedule s;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (item.empty()) continue;
    if (isLeverEntry(item)) {
      s.leverEntries.push_back(item);
      continue;
    }
    Tactic t;
    t.spelling = item;
    std::string name = item, axes;
    if (size_t colon = item.find(':'); colon != std::string::npos) {
      name = item.substr(0, colon);
      axes = item.substr(colon + 1);
    }
    if (!resolveName(name, t)) {
      *error = unknownTactic(name);
      return std::nullopt;
    }
    if (t.kind == TacticKind::Manual) {
      *error = "manual tactics list argument-name globs, so they go in a JSON/YAML file";
      return std::nullopt;
    }
    std::stringstream as(axes);
    std::string a;
    while (std::getline(as, a, '+'))
      if (!a.empty()) t.axes.push_back(a);
    if (!finish(t, mesh, error)) return std::nullopt;
    s.tactics.push_back(std::move(t));
  }
  if (s.tactics.empty() && s.leverEntries.empty()) {
    *error = "empty tactic schedule";
    return std::nullopt;
  }
  return s;
}

// One entry of a file, already converted to JSON (YAML maps onto it).
bool tacticFromJson(const nlohmann::json &j, const Mesh &mesh, Tactic &t, std::string *error) {
  if (j.is_string()) {
    std::optional<TacticSchedule> s = parseInline(j.get<std::string>(), mesh, error);
    if (!s || s->tactics.size() != 1) {
      if (s) *error = "one tactic per list entry";
      return false;
    }
    t = s->tactics[0];
    return true;
  }
  if (!j.is_object()) {
    *error = "each tactic must be a name or a mapping";
    return false;
  }
  t.spelling = j.dump();
  std::string name = j.contains("tactic") ? j["tactic"].get<std::string>()
                                           : (j.contains("inputs") ? "manual" : "");
  if (!resolveName(name, t)) {
    *error = unknownTactic(name) + " in " + t.spelling;
    return false;
  }
  for (auto &[key, value] : j.items()) {
    if (key == "tactic") continue;
    if (key == "axis") {
      t.axes.push_back(value.get<std::string>());
    } else if (key == "axes") {
      for (const auto &a : value) t.axes.push_back(a.get<std::string>());
    } else if (key == "inputs") {
      if (!value.is_object()) {
        *error = "'inputs' must map argument-name globs to dimensions in " + t.spelling;
        return false;
      }
      for (auto &[glob, dim] : value.items()) {
        if (!dim.is_number_integer()) {
          *error = "dimension for '" + glob + "' must be an integer in " + t.spelling;
          return false;
        }
        t.inputs.push_back({glob, dim.get<int64_t>()});
      }
    } else {
      *error = "unknown key '" + key + "' in tactic " + t.spelling;
      return false;
    }
  }
  return finish(t, mesh, error);
}

nlohmann::json yamlToJson(const YAML::Node &n) {
  switch (n.Type()) {
  case YAML::NodeType::Sequence: {
    nlohmann::json a = nlohmann::json::array();
    for (const YAML::Node &e : n) a.push_back(yamlToJson(e));
    return a;
  }
  case YAML::NodeType::Map: {
    nlohmann::json o = nlohmann::json::object();
    for (const auto &kv : n) o[kv.first.as<std::string>()] = yamlToJson(kv.second);
    return o;
  }
  case YAML::NodeType::Scalar: {
    std::string s = n.as<std::string>();
    char *end = nullptr;
    long long v = std::strtoll(s.c_str(), &end, 10);
    if (!s.empty() && end && *end == '\0') return v;
    return s;
  }
  default:
    return nullptr;
  }
}

std::optional<TacticSchedule> parseSchedule(const std::string &spec, const Mesh &mesh, std::string *error) {
  std::filesystem::path path(spec);
  std::string ext = path.extension().string();
  bool isFile = ext == ".json" || ext == ".yaml" || ext == ".yml";
  if (!isFile) return parseInline(spec, mesh, error);
  std::ifstream in(spec);
  if (!in) {
    *error = "cannot open tactics file '" + spec + "'";
    return std::nullopt;
  }
  nlohmann::json doc;
  try {
    if (ext == ".json") {
      doc = nlohmann::json::parse(in);
    } else {
      doc = yamlToJson(YAML::Load(in));
    }
  } catch (const std::exception &e) {
    *error = spec + ": " + e.what();
    return std::nullopt;
  }
  TacticSchedule s;
  if (doc.is_object() && doc.contains("input_shardings")) {
    const nlohmann::json &v = doc["input_shardings"];
    if (!v.is_string()) {
      *error = spec + ": input_shardings must be one of keep, map, drop, error";
      return std::nullopt;
    }
    s.inputShardings = v.get<std::string>();
  }
  if (doc.is_object() && doc.contains("tactics")) doc = doc["tactics"];
  if (!doc.is_array()) {
    *error = spec + ": expected a list of tactics";
    return std::nullopt;
  }
  for (const nlohmann::json &j : doc) {
    // Levers: "remat:full", {remat: full}, {microbatch: 8}.
    if (j.is_string() && isLeverEntry(j.get<std::string>())) {
      s.leverEntries.push_back(j.get<std::string>());
      continue;
    }
    if (j.is_object() && j.size() == 1 && (j.contains("remat") || j.contains("microbatch"))) {
      auto it = j.begin();
      s.leverEntries.push_back(it.key() + ":" + (it.value().is_string() ? it.value().get<std::string>() : it.value().dump()));
      continue;
    }
    Tactic t;
    if (!tacticFromJson(j, mesh, t, error)) {
      *error = spec + ": " + *error;
      return std::nullopt;
    }
    s.tactics.push_back(std::move(t));
  }
  if (s.tactics.empty() && s.leverEntries.empty()) {
    *error = spec + ": empty tactic schedule";
    return std::nullopt;
  }
  return s;
}

}  // namespace

std::optional<TacticSchedule> parseTacticSchedule(const std::string &spec, const Mesh &mesh, Diagnostics &diags) {
  std::string error;
  std::optional<TacticSchedule> s = parseSchedule(spec, mesh, &error);
  if (!s) {
    diags.error(error);
    return s;
  }
  std::optional<LeverConfig> levers = parseLevers(s->leverEntries, diags);
  if (!levers) return std::nullopt;
  s->levers = *levers;
  return s;
}

}  // namespace autopart
