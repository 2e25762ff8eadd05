// Benchmark training steps for `autopart gen`: each builds a whole step
// (forward, loss, backward, Adam update) as JAX would lower it, with the
// parameters, optimizer state and batch named by `jax.arg_info` so tactics
// and the search see their roles.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gen/StablehloEmitter.h"

#include "support/Diagnostics.h"

namespace autopart::gen {

struct MlpConfig {
  int64_t batch = 128;
  int64_t input = 784;
  int64_t width = 512;
  int64_t layers = 2;  // hidden layers
  int64_t classes = 10;
  std::string dtype = "f32";
};

// Activation recomputation (rematerialization) of a training step.
enum class Remat {
  None,  // the backward reads what the forward computed
  Full,  // per decoder layer, as jax.checkpoint: only the layer's input is
         // kept; its forward is recomputed from it (behind an
         // optimization_barrier) just before the layer's backward
};

// GPT-style decoder (pre-LayerNorm, learned positions, tied embedding).
// Mixed precision as Megatron-LM and JAX train: dtype "bf16" with
// masterDtype "f32" takes f32 parameters and Adam moments, converts each
// parameter to bf16 where the forward first uses it, runs forward and
// backward in bf16 and the Adam update in f32. Dropout as Megatron-LM
// trains GPT (Narayanan et al. 2021: 0.1 on the attention probabilities
// and on each block's output before its residual add), its bits from a
// `rng` state argument (tensor<2xui64>) whose next value the step returns.
struct GptConfig {
  int64_t layers = 2;
  int64_t dModel = 256;
  int64_t heads = 4;
  int64_t headDim = 64;
  int64_t ffn = 1024;  // 4 * d_model unless set
  int64_t seq = 128;
  int64_t batch = 8;   // sequences per step
  int64_t vocab = 1024;
  std::string dtype = "bf16";        // compute type
  std::string masterDtype;           // parameters and Adam state; empty: dtype
  Remat remat = Remat::None;
  double dropout = 0;                // in [0, 1); 0: none, no rng argument
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

// T5-style encoder-decoder (Raffel et al. 2020, v1.0): shared token
// embedding tied to the output projection, pre-RMSNorm blocks without
// biases, ReLU MLPs; the encoder attends bidirectionally, the decoder
// causally to itself and to the encoder output. No relative position bias
// (T5 has 32 x heads of it per stack, 0.0005% of t5-small). Decoder inputs
// are the targets shifted right by one (start token 0), as T5 trains.
struct T5Config {
  int64_t encoderLayers = 2;
  int64_t decoderLayers = 2;
  int64_t dModel = 256;
  int64_t heads = 4;
  int64_t headDim = 64;
  int64_t ffn = 1024;
  int64_t encSeq = 128;
  int64_t decSeq = 32;
  int64_t batch = 8;
  int64_t vocab = 1024;
  std::string dtype = "bf16";
};

// t5-small, t5-base, t5-large (the paper's Section 3.7 sizes, vocabulary
// 32128 as the released checkpoints) with input length 512, target length
// 128 and 128 sequences per step. Empty: unknown name.
std::optional<T5Config> t5Preset(const std::string &name);
std::vector<std::string> t5PresetNames();

// U-Net (Ronneberger et al. 2015, as diffusion models use it, without the
// time embedding) regressing an image: per encoder level two 3x3
// conv + ReLU at width baseWidth * 2^level, then a stride-2 3x3 conv
// halving height and width; a bottleneck of two conv + ReLU; per decoder
// level a nearest-neighbour 2x upsampling, the skip connection concatenated
// on channels, two conv + ReLU; a final 1x1 conv back to `channels`. Mean
// squared error against `batch['target']`, Adam. Height and width must be
// divisible by 2^levels.
struct UnetConfig {
  int64_t batch = 8;
  int64_t height = 64;
  int64_t width = 64;
  int64_t channels = 3;
  int64_t baseWidth = 32;
  int64_t levels = 3;
  std::string dtype = "f32";
};

struct GenResult {
  std::string text;
  size_t numOps = 0;
  int64_t numParams = 0;
};

// Each generator checks its configuration and returns nullopt with the
// reason in `diags` when it cannot build the program.
std::optional<GenResult> generateMlp(const MlpConfig &c, Diagnostics &diags);
std::optional<GenResult> generateGpt(const GptConfig &c, Diagnostics &diags);
std::optional<GenResult> generateGnn(const GnnConfig &c, Diagnostics &diags);
std::optional<GenResult> generateT5(const T5Config &c, Diagnostics &diags);
std::optional<GenResult> generateUnet(const UnetConfig &c, Diagnostics &diags);

}  // namespace autopart::gen
