// The process grid of `interpreter.run_parallel` and the rendezvous its
// collectives meet at. Each process (replica r, partition p; device id
// r * numPartitions + p) runs in its own thread with its own Interpreter;
// a collective op hands its operands to the hub and blocks until every
// member of its process group did, then computes its result from all of
// them:
//
//   "interpreter.run_parallel"(%a, %b) {programs = [[@f], [@f]]}
//     -> two replicas run @f(%a) and @f(%b); an all_reduce in @f sums both.
//
// A process that fails aborts the hub, so the others stop waiting.
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>

#include "exec/Interpreter.h"

namespace autopart::exec {

class CollectiveHub {
public:
  // Contributions of every device of `group` (in group order) under `key`.
  // Throws std::runtime_error when the hub was aborted.
  std::vector<std::vector<TensorPtr>> exchange(const std::string &key, const std::vector<int64_t> &group, int64_t me,
                                               std::vector<TensorPtr> mine);
  void abort();
  // Point-to-point channels (stablehlo.send / recv): FIFO per channel id;
  // recv blocks until a value arrives.
  void send(int64_t channel, std::vector<TensorPtr> values);
  std::vector<TensorPtr> recv(int64_t channel);
  // The next value of a channel without waiting; false when it is empty
  // (the infeed queue, filled before the processes start).
  bool poll(int64_t channel, std::vector<TensorPtr> &out);
  static constexpr int64_t kInfeed = -1;

private:
  std::map<int64_t, std::vector<std::vector<TensorPtr>>> channels_;
  struct Slot {
    std::map<int64_t, std::vector<TensorPtr>> got;
    size_t readers = 0;
  };
  std::mutex mu_;
  std::condition_variable cv_;
  bool aborted_ = false;
  std::map<std::string, Slot> slots_;
};

}  // namespace autopart::exec
