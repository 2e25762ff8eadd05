#include "tactics/TacticSchedule.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace autopart {

const char *tacticKindName(TacticKind k) {
  switch (k) {
  case TacticKind::Manual: return "manual";
  case TacticKind::BatchParallel: return "dp";
  case TacticKind::Fsdp: return "fsdp";
  case TacticKind::Megatron: return "megatron";
  case TacticKind::Auto: return "auto";
  }
  return "manual";
}

namespace {

std::optional<TacticKind> kindFromName(const std::string &n) {
  if (n == "dp" || n == "batch" || n == "batch_parallel" || n == "data_parallel")
    return TacticKind::BatchParallel;
  if (n == "fsdp" || n == "zero3" || n == "zero-3" || n == "zero") return TacticKind::Fsdp;
  if (n == "megatron" || n == "tp" || n == "tensor_parallel" || n == "mp") return TacticKind::Megatron;
  if (n == "auto") return TacticKind::Auto;
  if (n == "manual") return TacticKind::Manual;
  return std::nullopt;
}

std::string defaultAxis(TacticKind k, const Mesh &mesh) {
  if (mesh.axes.empty()) return {};
  auto pick = [&](std::initializer_list<const char *> names) -> std::string {
    for (const char *n : names)
      if (mesh.axisIndex(n) >= 0) return n;
    return {};
  };
  if (k == TacticKind::Megatron) {
    std::string a = pick({"model", "tensor", "tp", "mp"});
    return a.empty() ? mesh.axes.back().name : a;
  }
  std::string a = pick({"data", "batch", "dp", "fsdp"});
  return a.empty() ? mesh.axes.front().name : a;
}

bool finish(Tactic &t, const Mesh &mesh, std::string *error) {
  if (t.axes.empty()) {
    if (t.kind == TacticKind::Auto) {
      for (const MeshAxis &a : mesh.axes) t.axes.push_back(a.name);
    } else {
      std::string a = defaultAxis(t.kind, mesh);
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
    Tactic t;
    t.spelling = item;
    std::string name = item, axes;
    if (size_t colon = item.find(':'); colon != std::string::npos) {
      name = item.substr(0, colon);
      axes = item.substr(colon + 1);
    }
    std::optional<TacticKind> k = kindFromName(name);
    if (!k || *k == TacticKind::Manual) {
      *error = "unknown tactic '" + name + "' (expected dp, fsdp, megatron or auto; manual "
               "tactics go in a JSON/YAML file)";
      return std::nullopt;
    }
    t.kind = *k;
    std::stringstream as(axes);
    std::string a;
    while (std::getline(as, a, '+'))
      if (!a.empty()) t.axes.push_back(a);
    if (!finish(t, mesh, error)) return std::nullopt;
    s.tactics.push_back(std::move(t));
  }
  if (s.tactics.empty()) {
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
  std::optional<TacticKind> k = kindFromName(name);
  if (!k) {
    *error = "unknown tactic '" + name + "' in " + t.spelling;
    return false;
  }
  t.kind = *k;
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

}  // namespace

std::optional<TacticSchedule> parseTacticSchedule(const std::string &spec, const Mesh &mesh,
                                                  std::string *error) {
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
  if (doc.is_object() && doc.contains("tactics")) doc = doc["tactics"];
  if (!doc.is_array()) {
    *error = spec + ": expected a list of tactics";
    return std::nullopt;
  }
  TacticSchedule s;
  for (const nlohmann::json &j : doc) {
    Tactic t;
    if (!tacticFromJson(j, mesh, t, error)) {
      *error = spec + ": " + *error;
      return std::nullopt;
    }
    s.tactics.push_back(std::move(t));
  }
  if (s.tactics.empty()) {
    *error = spec + ": empty tactic schedule";
    return std::nullopt;
  }
  return s;
}

}  // namespace autopart
