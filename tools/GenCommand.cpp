// `autopart gen mlp|gpt|gnn|t5|unet [sizes] [-o OUT]`: writes a benchmark training step
// as StableHLO in JAX's style (gen/). The program is parsed back before it is
// written, so a generator bug is an error here, not in a later command.
//
//   autopart gen gpt --preset 175b -o gpt3.mlir
//   autopart gen gpt --preset 6.7b --dtype bf16 --master-dtype f32 --remat full
//   autopart gen gpt --preset 1.3b --dropout 0.1
//   autopart gen mlp --layers 4 --width 1024 --batch 256
//   autopart gen t5 --preset t5-small --batch 32
//   autopart gen unet --height 128 --width 128 --levels 4
#include <chrono>
#include <iostream>

#include "asm/Parser.h"
#include "gen/Models.h"
#include "support/AtomicFile.h"
#include "tools/Command.h"

namespace autopart {
namespace {

struct GenOptions {
  std::string output = "-";
  std::string preset;
  bool stats = false;
  gen::MlpConfig mlp;
  gen::GptConfig gpt;
  gen::GnnConfig gnn;
  gen::T5Config t5;
  gen::UnetConfig unet;
  int64_t t5Layers = 0;
  int64_t ffn = 0;
  std::string gptRemat = "none";
};

int emit(const GenOptions &o, const std::string &kind, gen::GenResult r, double seconds) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(r.text, kind + ".mlir", &err);
  if (!m) {
    std::cerr << "autopart gen: internal error: the generated " << kind << " program does not parse: " << err.full
              << "\n";
    return 2;
  }
  Diagnostics diags;
  if (o.output == "-") {
    std::cout << r.text;
  } else if (!writeFileAtomic(o.output, r.text, diags)) {
    printDiagnostics(diags, "autopart gen");
    return 1;
  }
  if (o.stats || o.output != "-")
    std::cerr << "autopart gen " << kind << ": " << r.numOps << " ops, " << r.numParams << " parameters, "
              << r.text.size() << " bytes in " << seconds << " s\n";
  return 0;
}

template <typename Fn>
int run(const GenOptions &o, const std::string &kind, Fn fn) {
  auto start = std::chrono::steady_clock::now();
  Diagnostics diags;
  std::optional<gen::GenResult> r = fn(diags);
  if (!r) {
    printDiagnostics(diags, "autopart gen " + kind);
    return 1;
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return emit(o, kind, std::move(*r), s);
}

void commonOptions(CLI::App *app, GenOptions &o) {
  app->add_option("-o,--output", o.output, "Output file (default: stdout)");
  app->add_flag("--stats", o.stats, "Print ops, parameters and bytes to stderr");
}

CommandRegistration reg("gen", "Generate a benchmark training step (mlp, gpt, gnn, t5, unet) as StableHLO", [](CLI::App &app) {
  auto o = std::make_shared<GenOptions>();
  auto which = std::make_shared<std::string>();
  app.require_subcommand(1);

  CLI::App *mlp = app.add_subcommand("mlp", "MLP classifier: ReLU hidden layers, cross-entropy, Adam");
  commonOptions(mlp, *o);
  mlp->add_option("--batch", o->mlp.batch, "Examples per step")->check(CLI::PositiveNumber);
  mlp->add_option("--input", o->mlp.input, "Input features")->check(CLI::PositiveNumber);
  mlp->add_option("--width", o->mlp.width, "Hidden width")->check(CLI::PositiveNumber);
  mlp->add_option("--layers", o->mlp.layers, "Hidden layers")->check(CLI::NonNegativeNumber);
  mlp->add_option("--classes", o->mlp.classes, "Output classes")->check(CLI::PositiveNumber);
  mlp->add_option("--dtype", o->mlp.dtype, "Float type")->check(CLI::IsMember({"f32", "bf16", "f16"}));
  mlp->callback([which] { *which = "mlp"; });

  CLI::App *gpt = app.add_subcommand("gpt", "GPT-style decoder: attention, GELU MLP, LayerNorm, tied embedding, Adam");
  commonOptions(gpt, *o);
  std::string presets;
  for (const std::string &p : gen::gptPresetNames()) presets += (presets.empty() ? "" : ", ") + p;
  gpt->add_option("--preset", o->preset, "GPT-3 paper size: " + presets + " (other options override it)");
  gpt->add_option("--layers", o->gpt.layers, "Decoder layers")->check(CLI::PositiveNumber);
  gpt->add_option("--d-model", o->gpt.dModel, "Model width")->check(CLI::PositiveNumber);
  gpt->add_option("--heads", o->gpt.heads, "Attention heads")->check(CLI::PositiveNumber);
  gpt->add_option("--head-dim", o->gpt.headDim, "Width of a head")->check(CLI::PositiveNumber);
  gpt->add_option("--ffn", o->ffn, "MLP hidden width (default 4 x d-model)")->check(CLI::PositiveNumber);
  gpt->add_option("--seq", o->gpt.seq, "Sequence length")->check(CLI::PositiveNumber);
  gpt->add_option("--batch", o->gpt.batch, "Sequences per step")->check(CLI::PositiveNumber);
  gpt->add_option("--vocab", o->gpt.vocab, "Vocabulary size")->check(CLI::PositiveNumber);
  gpt->add_option("--dtype", o->gpt.dtype, "Float type of the forward and backward (compute)")
      ->check(CLI::IsMember({"f32", "bf16", "f16"}));
  gpt->add_option("--master-dtype", o->gpt.masterDtype,
                  "Float type of the parameters, Adam moments and update (default: --dtype; f32 with a bf16 or "
                  "f16 --dtype is mixed precision)")
      ->check(CLI::IsMember({"f32", "bf16", "f16"}));
  gpt->add_option("--remat", o->gptRemat,
                  "Activation recomputation: none, or full (each layer's forward recomputed from its input before "
                  "its backward, as jax.checkpoint per layer)")
      ->check(CLI::IsMember({"none", "full"}));
  gpt->add_option("--dropout", o->gpt.dropout,
                  "Dropout rate P in [0, 1) on the attention probabilities and on each attention and MLP output "
                  "before its residual add (Megatron-LM: 0.1); bits from stablehlo.rng_bit_generator on an "
                  "added 'rng' argument (tensor<2xui64>), the next state returned (default 0: none)");
  gpt->callback([which] { *which = "gpt"; });

  CLI::App *gnn = app.add_subcommand("gnn", "Graph network: gather / scatter-add message passing, Adam");
  commonOptions(gnn, *o);
  gnn->add_option("--nodes", o->gnn.nodes, "Nodes")->check(CLI::PositiveNumber);
  gnn->add_option("--edges", o->gnn.edges, "Edges")->check(CLI::PositiveNumber);
  gnn->add_option("--features", o->gnn.features, "Input features per node")->check(CLI::PositiveNumber);
  gnn->add_option("--hidden", o->gnn.hidden, "Hidden width")->check(CLI::PositiveNumber);
  gnn->add_option("--layers", o->gnn.layers, "Message-passing layers")->check(CLI::PositiveNumber);
  gnn->add_option("--classes", o->gnn.classes, "Node classes")->check(CLI::PositiveNumber);
  gnn->add_option("--dtype", o->gnn.dtype, "Float type")->check(CLI::IsMember({"f32", "bf16", "f16"}));
  gnn->callback([which] { *which = "gnn"; });

  CLI::App *t5 = app.add_subcommand("t5", "T5-style encoder-decoder: self- and cross-attention, ReLU MLP, RMSNorm, Adam");
  commonOptions(t5, *o);
  std::string t5Presets;
  for (const std::string &p : gen::t5PresetNames()) t5Presets += (t5Presets.empty() ? "" : ", ") + p;
  t5->add_option("--preset", o->preset, "T5 size: " + t5Presets + " (other options override it)");
  t5->add_option("--layers", o->t5Layers, "Encoder and decoder layers")->check(CLI::PositiveNumber);
  t5->add_option("--encoder-layers", o->t5.encoderLayers, "Encoder layers")->check(CLI::PositiveNumber);
  t5->add_option("--decoder-layers", o->t5.decoderLayers, "Decoder layers")->check(CLI::PositiveNumber);
  t5->add_option("--d-model", o->t5.dModel, "Model width")->check(CLI::PositiveNumber);
  t5->add_option("--heads", o->t5.heads, "Attention heads")->check(CLI::PositiveNumber);
  t5->add_option("--head-dim", o->t5.headDim, "Width of a head (d_kv)")->check(CLI::PositiveNumber);
  t5->add_option("--ffn", o->t5.ffn, "MLP hidden width (d_ff)")->check(CLI::PositiveNumber);
  t5->add_option("--enc-seq", o->t5.encSeq, "Input sequence length")->check(CLI::PositiveNumber);
  t5->add_option("--dec-seq", o->t5.decSeq, "Target sequence length")->check(CLI::PositiveNumber);
  t5->add_option("--batch", o->t5.batch, "Sequence pairs per step")->check(CLI::PositiveNumber);
  t5->add_option("--vocab", o->t5.vocab, "Vocabulary size")->check(CLI::PositiveNumber);
  t5->add_option("--dtype", o->t5.dtype, "Float type")->check(CLI::IsMember({"f32", "bf16", "f16"}));
  t5->callback([which] { *which = "t5"; });

  CLI::App *unet = app.add_subcommand("unet", "U-Net: conv encoder/decoder with skip connections, MSE, Adam");
  commonOptions(unet, *o);
  unet->add_option("--batch", o->unet.batch, "Images per step")->check(CLI::PositiveNumber);
  unet->add_option("--height", o->unet.height, "Image height")->check(CLI::PositiveNumber);
  unet->add_option("--width", o->unet.width, "Image width")->check(CLI::PositiveNumber);
  unet->add_option("--channels", o->unet.channels, "Image channels")->check(CLI::PositiveNumber);
  unet->add_option("--base-width", o->unet.baseWidth, "Channels of the first level (doubled per level)")
      ->check(CLI::PositiveNumber);
  unet->add_option("--levels", o->unet.levels, "Down/up-sampling levels")->check(CLI::PositiveNumber);
  unet->add_option("--dtype", o->unet.dtype, "Float type")->check(CLI::IsMember({"f32", "bf16", "f16"}));
  unet->callback([which] { *which = "unet"; });

  return [o, which, gpt, t5]() -> int {
    if (*which == "mlp") return run(*o, "mlp", [&](Diagnostics &d) { return gen::generateMlp(o->mlp, d); });
    if (*which == "gnn") return run(*o, "gnn", [&](Diagnostics &d) { return gen::generateGnn(o->gnn, d); });
    if (*which == "unet") return run(*o, "unet", [&](Diagnostics &d) { return gen::generateUnet(o->unet, d); });
    if (*which == "t5") {
      gen::T5Config c = o->t5;
      if (!o->preset.empty()) {
        std::optional<gen::T5Config> p = gen::t5Preset(o->preset);
        if (!p) {
          std::cerr << "autopart gen t5: error: unknown preset '" << o->preset << "'\n";
          return 1;
        }
        auto keep = [&](const char *flag, int64_t &field, int64_t given) {
          if (t5->count(flag)) field = given;
        };
        gen::T5Config given = c;
        c = *p;
        c.dtype = given.dtype;
        keep("--encoder-layers", c.encoderLayers, given.encoderLayers);
        keep("--decoder-layers", c.decoderLayers, given.decoderLayers);
        keep("--d-model", c.dModel, given.dModel);
        keep("--heads", c.heads, given.heads);
        keep("--head-dim", c.headDim, given.headDim);
        keep("--ffn", c.ffn, given.ffn);
        keep("--enc-seq", c.encSeq, given.encSeq);
        keep("--dec-seq", c.decSeq, given.decSeq);
        keep("--batch", c.batch, given.batch);
        keep("--vocab", c.vocab, given.vocab);
      }
      // --layers sets both stacks unless one is given on its own.
      if (o->t5Layers) {
        if (!t5->count("--encoder-layers")) c.encoderLayers = o->t5Layers;
        if (!t5->count("--decoder-layers")) c.decoderLayers = o->t5Layers;
      }
      return run(*o, "t5", [&](Diagnostics &d) { return gen::generateT5(c, d); });
    }
    gen::GptConfig c = o->gpt;
    if (!o->preset.empty()) {
      std::optional<gen::GptConfig> p = gen::gptPreset(o->preset);
      if (!p) {
        std::cerr << "autopart gen gpt: error: unknown preset '" << o->preset << "'\n";
        return 1;
      }
      // Explicit options override the preset's sizes.
      auto keep = [&](const char *flag, int64_t &field, int64_t given) {
        if (gpt->count(flag)) field = given;
      };
      gen::GptConfig given = c;
      c = *p;
      c.dtype = given.dtype;
      c.masterDtype = given.masterDtype;
      c.dropout = given.dropout;
      keep("--layers", c.layers, given.layers);
      keep("--d-model", c.dModel, given.dModel);
      keep("--heads", c.heads, given.heads);
      keep("--head-dim", c.headDim, given.headDim);
      keep("--seq", c.seq, given.seq);
      keep("--batch", c.batch, given.batch);
      keep("--vocab", c.vocab, given.vocab);
    }
    c.remat = o->gptRemat == "full" ? gen::Remat::Full : gen::Remat::None;
    if (o->ffn)
      c.ffn = o->ffn;
    else if (!o->preset.empty() || gpt->count("--d-model"))
      c.ffn = 4 * c.dModel;
    return run(*o, "gpt", [&](Diagnostics &d) { return gen::generateGpt(c, d); });
  };
});

}  // namespace
}  // namespace autopart
