// The named tactics, each registered from its own file (like passes, commands
// and search methods): its name and aliases, the mesh axis it takes when the
// schedule names none, a one-line description, what it seeds, and how far
// its seeds reach. Parsing a schedule (tactics/TacticSchedule.h) looks names
// up here, applying it (tactics/ApplySchedule.h) calls the seed function,
// and `autopart search` turns the expert schedules into methods. A new
// tactic is one file plus its test:
//
//   // tactics/Zero1Tactic.cpp (abridged)
//   TacticRegistration zero1({
//       .name = "zero1",
//       .aliases = {"zero-1"},
//       .defaultAxis = dataAxis(),
//       .description = "ZeRO-1: optimizer state partitioned over the data axis",
//       .reach = SeedReach::StateUpdate,
//       .seed = [](const SeedContext &c, TacticSeeds &out) {
//         for (size_t i = 0; i < c.args.size(); ++i)
//           if (c.shardable(i) && c.infos[i].role == ArgRole::OptimizerState) c.seedLargestFreeDim(i, out);
//       }});
//
//   parseTacticSchedule("dp,zero-1", mesh, &err)   -> dp on "data", zero1 on "data"
//   parseTacticSchedule("pipeline", mesh, &err)    -> nullopt, err = "unknown tactic
//       'pipeline' (registered: dp, fsdp, megatron, zero1; also auto, and manual
//       tactics in a JSON/YAML file)"
//
// `auto` and manual glob tactics are not registered: auto is the search,
// which lives downstream of tactics/ and comes in as a callback, and a
// manual tactic is its globs (only a file can say them), not a name.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/Sharding.h"
#include "tactics/TacticSeeds.h"

namespace autopart {

// How far a tactic's seeds reach once applied.
enum class SeedReach {
  Name,               // every dimension with the seed's name (dp, megatron)
  Argument,           // the argument alone, at rest; gathered where used (fsdp)
  StateUpdate,  // the argument, and what the step computes from it
                // elementwise: its update (returned split, so the state stays
                // split) and the new parameters' step (zero1)
  StateUpdateAndGradient,  // the same and the gradient the update reads, so
                           // it is reduce-scattered (fsdp)
};

// The axis a tactic takes when the schedule names none: the first of
// `names` the mesh has, else the mesh's first axis (its last with `orLast`).
struct DefaultAxis {
  std::vector<std::string> names;
  bool orLast = false;
};
DefaultAxis dataAxis();   // data, batch, dp, fsdp; else the first axis
DefaultAxis modelAxis();  // model, tensor, tp, mp; else the last axis

using TacticSeedFn = std::function<void(const SeedContext &, TacticSeeds &)>;

// Members have defaults, so a designated initializer may leave any out.
struct TacticInfo {
  std::string name = {};
  std::vector<std::string> aliases = {};
  DefaultAxis defaultAxis = {};
  std::string description = {};  // one line, for docs and help
  SeedReach reach = SeedReach::Name;
  TacticSeedFn seed = {};
  // Non-empty: the tactic alone is also an expert method of `autopart
  // search`, under its name, with this description.
  std::string expert = {};
};

// A named schedule `autopart search` runs as an expert method: a registered
// tactic alone, or a composition (ExpertScheduleRegistration).
struct ExpertSchedule {
  std::string name;         // method name, e.g. "dp+megatron"
  std::string schedule;     // inline schedule, e.g. "dp,megatron"
  std::string description;  // e.g. "Expert: batch + Megatron"
};

// Names and aliases must be unique and not `auto` or `manual`; a clash
// throws std::logic_error (at start-up, before main).
struct TacticRegistration {
  explicit TacticRegistration(TacticInfo info);
};

struct ExpertScheduleRegistration {
  ExpertScheduleRegistration(std::string name, std::string schedule, std::string description);
};

// The registered tactics, sorted by name.
std::vector<const TacticInfo *> registeredTactics();
// By name or alias; null when none.
const TacticInfo *findTactic(const std::string &nameOrAlias);
// "dp, fsdp, megatron, zero1", for error messages and help.
std::string registeredTacticNames();
// The axis `axis` picks on `mesh` ("" when the mesh has no axes).
std::string defaultAxisOn(const DefaultAxis &axis, const Mesh &mesh);
// Each expert tactic alone, by name, then the compositions, by name (so the
// order does not depend on the order files are linked in).
std::vector<ExpertSchedule> expertSchedules();

}  // namespace autopart
