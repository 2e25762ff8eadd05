// The files behind `interpreter.probe` and `check.expect_serialized_eq`.
// A probe serializes the value flowing through it, once per execution, and a
// later check reads the value of a probe's N-th execution back:
//
//   %1 = interpreter.probe %0, probe_id = "sum" : tensor<i64>     // in a loop
//   check.expect_serialized_eq %two, probe_id = "sum", iter = 1 : tensor<i64>
//
// The directory holds one raw little-endian file per execution and an
// `index.csv` of `probe_id,iteration,type,file` lines, the record a later
// reader (or a person) uses to find a value. Without a directory given, a
// temporary one is made on the first write and removed with the store, so
// each `autopart run` starts from no probes.
#pragma once

#include <string>
#include <unordered_map>

#include "exec/Tensor.h"

namespace autopart::exec {

class ProbeStore {
public:
  explicit ProbeStore(std::string dir = {}) : dir_(std::move(dir)) {}
  ~ProbeStore();
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
  std::string dir_;
  bool temporary_ = false;
  uint32_t files_ = 0;
  std::unordered_map<std::string, uint32_t> iterations_;
};

}  // namespace autopart::exec
