// Options that several passes take under one name (Shardy's pipelines pass
// them on to their steps): one type and one help line each, so --help and
// the option checks say the same wherever the option appears.
//
//   PassRegistration reg("sdy-unflatten-call-graph", "...", run,
//                        {sharedPassOption("dedup-functions-fully")});
#pragma once

#include <string_view>

#include "ir/Pass.h"

namespace autopart {

// The catalog's entry for `name`; a name it lacks gives an entry without a
// help line, which the registry's unit test rejects.
PassOptionSpec sharedPassOption(std::string_view name);

}  // namespace autopart
