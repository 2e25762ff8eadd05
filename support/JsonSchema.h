// The version of autopart's JSON output (docs/json.md), written as
// `schema_version` at the top of every report. Adding a key keeps it;
// renaming or removing one, or changing a unit or meaning, increments it.
#pragma once

namespace autopart {

constexpr int kJsonSchemaVersion = 1;

}  // namespace autopart
