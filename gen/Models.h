// Benchmark training steps for `autopart gen`: each builds a whole step
// (forward, loss, backward, Adam update) as JAX would lower it, with the
// parameters, optimizer state and batch named by `jax.arg_info` so tactics
// and the search see their roles.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gen/StablehloEmitter.h"

namespace autopart::gen {

struct MlpConfig {
  int64_t batch = 128;
  int64_t input = 784;
  int64_t width = 512;
  int64_t layers = 2;  // hidden layers
  int64_t classes = 10;
  std::string dtype = "f32";
};

// GPT-style decoder (pre-LayerNorm, learned positions, tied embedding).
struct GptConfig {
  int64_t layers = 2;
  int64_t dModel = 256;
  int64_t heads = 4;
  int64_t headDim = 64;
  int64_t ffn = 1024;  // 4 * d_model unless set
  int64_t seq = 128;
  int64_t batch = 8;   // sequences per step
  int64_t vocab = 1024;
  std::string dtype = "bf16";
};

// The GPT-3 paper's model sizes (Brown et al. 2020, Table 2.1), with its
// batch sizes in sequences of 2048 tokens and the vocabulary padded to
// 50304 as Megatron-LM does (50257 has no factor of 2). Empty: unknown name.
std::optional<GptConfig> gptPreset(const std::string &name);
std::vector<std::string> gptPresetNames();

// Graph network (message passing, as in Battaglia et al. 2018): per layer
// each edge gathers its source node's features, transforms them, and the
// messages are scatter-added into their destination nodes; node
// classification with cross-entropy, Adam.
struct GnnConfig {
  int64_t nodes = 1024;
  int64_t edges = 8192;
  int64_t features = 128;
  int64_t hidden = 256;
  int64_t layers = 2;
  int64_t classes = 16;
  std::string dtype = "f32";
};

struct GenResult {
  std::string text;
  size_t numOps = 0;
  int64_t numParams = 0;
};

GenResult generateMlp(const MlpConfig &c);
GenResult generateGpt(const GptConfig &c);
GenResult generateGnn(const GnnConfig &c);

}  // namespace autopart::gen
