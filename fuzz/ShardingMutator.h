// Structured mutations of the meshes and shardings of a real program, for the
// sharding-level fuzzer (fuzz/ShardingFuzzer.cpp). A mutation parses the
// program, changes one mesh or one tensor sharding in a way it can explain,
// and prints the program again. Each kind says what the verifier must do with
// the result: reject it (it breaks one of Shardy's rules), accept it (it
// stays within them), or either (Shardy allows it in some programs only).
//
//   base:    %arg6: tensor<128x784xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>}
//   repeated-axis-across-dims, seed 7:
//            %arg0: tensor<128x784xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {"data"}]>}
//   what:    "func @main arg 6: [{"data"}, {}] -> [{"data"}, {"data"}]"   expect: reject
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace autopart {

enum class Expectation { Reject, Accept, Either };

const char *expectationName(Expectation e);

struct Mutant {
  std::string kind;
  Expectation expect = Expectation::Either;
  std::string what;  // the edit, in Shardy's syntax, and where it is
  std::string text;  // the whole mutated program
};

// Names of every mutation kind, in a fixed order (the fuzzer cycles over them
// so that every kind is drawn about equally often).
const std::vector<std::string> &mutationKinds();

// Applies mutation `kind` to a random place of `program` that it fits.
// Returns false when the program has no such place (no mesh, no sub-axis
// that can be split, no op with shardings, ...) or does not parse.
bool mutateProgram(const std::string &program, const std::string &kind, std::mt19937_64 &rng,
                   Mutant &out);

// `program` printed as its mutants are, without an edit: the fuzzer checks
// that it survives before it mutates it. False when it does not parse.
bool printProgram(const std::string &program, std::string &out);

}  // namespace autopart
