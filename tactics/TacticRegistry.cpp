#include "tactics/TacticRegistry.h"

#include <map>
#include <stdexcept>

namespace autopart {

namespace {

struct Registry {
  std::map<std::string, TacticInfo> tactics;     // by name
  std::map<std::string, std::string> spellings;  // name or alias -> name
  std::map<std::string, ExpertSchedule> compositions;
};

// Constructed on first use, so registrations in other files' static objects
// never see it unconstructed.
Registry &registry() {
  static Registry r;
  return r;
}

void checkFree(const Registry &r, const std::string &spelling, const std::string &name) {
  if (spelling == "auto" || spelling == "manual")
    throw std::logic_error("tactic '" + name + "': '" + spelling + "' is reserved");
  if (auto at = r.spellings.find(spelling); at != r.spellings.end())
    throw std::logic_error("tactic '" + name + "': '" + spelling + "' is already tactic '" + at->second + "'");
}

}  // namespace

DefaultAxis dataAxis() { return {{"data", "batch", "dp", "fsdp"}, false}; }

DefaultAxis modelAxis() { return {{"model", "tensor", "tp", "mp"}, true}; }

TacticRegistration::TacticRegistration(TacticInfo info) {
  Registry &r = registry();
  checkFree(r, info.name, info.name);
  for (const std::string &a : info.aliases) checkFree(r, a, info.name);
  r.spellings.emplace(info.name, info.name);
  for (const std::string &a : info.aliases) r.spellings.emplace(a, info.name);
  std::string name = info.name;
  r.tactics.emplace(std::move(name), std::move(info));
}

ExpertScheduleRegistration::ExpertScheduleRegistration(std::string name, std::string schedule,
                                                       std::string description) {
  std::string key = name;
  if (!registry().compositions.emplace(key, ExpertSchedule{std::move(name), std::move(schedule), std::move(description)})
           .second)
    throw std::logic_error("expert schedule '" + key + "' registered twice");
}

std::vector<const TacticInfo *> registeredTactics() {
  std::vector<const TacticInfo *> out;
  for (const auto &[name, info] : registry().tactics) out.push_back(&info);
  return out;
}

const TacticInfo *findTactic(const std::string &nameOrAlias) {
  const Registry &r = registry();
  auto s = r.spellings.find(nameOrAlias);
  if (s == r.spellings.end()) return nullptr;
  return &r.tactics.at(s->second);
}

std::string registeredTacticNames() {
  std::string out;
  for (const TacticInfo *t : registeredTactics()) out += (out.empty() ? "" : ", ") + t->name;
  return out;
}

std::string defaultAxisOn(const DefaultAxis &axis, const Mesh &mesh) {
  if (mesh.axes.empty()) return {};
  for (const std::string &n : axis.names)
    if (mesh.axisIndex(n) >= 0) return n;
  return axis.orLast ? mesh.axes.back().name : mesh.axes.front().name;
}

std::vector<ExpertSchedule> expertSchedules() {
  std::vector<ExpertSchedule> out;
  for (const TacticInfo *t : registeredTactics())
    if (!t->expert.empty()) out.push_back({t->name, t->name, t->expert});
  for (const auto &[name, e] : registry().compositions) out.push_back(e);
  return out;
}

}  // namespace autopart
