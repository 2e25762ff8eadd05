// The files behind `interpreter.probe` and `check.expect_serialized_eq`.
// A probe serializes the value flowing through it, once per execution, and a
// later check reads the value of a probe's N-th execution back:
//
//   %1 = interpreter.probe %0, probe_id = "sum" : tensor<i64>     // in a loop
//   check.expect_serialized_eq %two, probe_id = "sum", iter = 1 : tensor<i64>
//
// The directory holds one raw little-endian file per execution and an
// `index.csv` of `probe_id,iteration,type,file` lines, the record a later
// reader (or a person) uses to find a value. Without a directory given, the
// values stay in memory (at most kMemoryLimit bytes), so each `autopart run`
// starts from no probes and a run that is killed leaves no files behind (a
// probe inside a long while loop once left gigabytes in /tmp).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "exec/Tensor.h"

namespace autopart::exec {

class ProbeStore {
public:
  static constexpr size_t kMemoryLimit = size_t(1) << 30;

  explicit ProbeStore(std::string dir = {}, size_t memoryLimit = kMemoryLimit)
      : dir_(std::move(dir)), memoryLimit_(memoryLimit) {}
  ProbeStore(const ProbeStore &) = delete;
  ProbeStore &operator=(const ProbeStore &) = delete;

  // Appends the next execution of probe `id`. Throws std::runtime_error when
  // the directory cannot be written.
  void write(const std::string &id, const Tensor &t);
  // The value of the `iteration`-th execution of `id` (0-based) read back
  // from its file as a tensor of `like`'s type; nullptr and an explanation
  // in `why` when there is none or it was written with another type.
  TensorPtr read(const std::string &id, uint32_t iteration, const Tensor &like, std::string &why) const;

private:
  struct Recorded {
    std::string type;
    std::vector<uint8_t> bytes;
  };
  std::string dir_;
  uint32_t files_ = 0;
  std::unordered_map<std::string, uint32_t> iterations_;
  // In-memory store (no directory): each probe id's executions in order.
  std::unordered_map<std::string, std::vector<Recorded>> memory_;
  size_t memoryLimit_;
  size_t memoryBytes_ = 0;
};

}  // namespace autopart::exec
