// `autopart gen mlp|gpt|gnn [sizes] [-o OUT]`: writes a benchmark training step
// as StableHLO in JAX's style (gen/). The program is parsed back before it is
// written, so a generator bug is an error here, not in a later command.
//
//   autopart gen gpt --preset 175b -o gpt3.mlir
//   autopart gen mlp --layers 4 --width 1024 --batch 256
#include <chrono>
#include <iostream>

#include "gen/Models.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
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
  int64_t ffn = 0;
};

int emit(const GenOptions &o, const std::string &kind, gen::GenResult r, double seconds) {
  ParseError err;
  std::unique_ptr<Module> m = parseModule(r.text, kind + ".mlir", &err);
  if (!m) {
    std::cerr << "autopart gen: internal error: the generated " << kind << " program does not parse: " << err.full
              << "\n";
    return 2;
  }
  std::string werr;
  if (o.output == "-") {
    std::cout << r.text;
  } else if (!writeFileAtomic(o.output, r.text, &werr)) {
    std::cerr << "autopart gen: error: " << werr << "\n";
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
  try {
    gen::GenResult r = fn();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return emit(o, kind, std::move(r), s);
  } catch (const gen::GenError &e) {
    std::cerr << "autopart gen " << kind << ": error: " << e.what() << "\n";
    return 1;
  }
}

void commonOptions(CLI::App *app, GenOptions &o) {
  app->add_option("-o,--output", o.output, "Output file (default: stdout)");
  app->add_flag("--stats", o.stats, "Print ops, parameters and bytes to stderr");
}

CommandRegistration reg("gen", "Generate a benchmark training step (mlp, gpt, gnn) as StableHLO", [](CLI::App &app) {
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
  gpt->add_option("--dtype", o->gpt.dtype, "Float type")->check(CLI::IsMember({"f32", "bf16", "f16"}));
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

  return [o, which, gpt]() -> int {
    if (*which == "mlp") return run(*o, "mlp", [&] { return gen::generateMlp(o->mlp); });
    if (*which == "gnn") return run(*o, "gnn", [&] { return gen::generateGnn(o->gnn); });
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
      keep("--layers", c.layers, given.layers);
      keep("--d-model", c.dModel, given.dModel);
      keep("--heads", c.heads, given.heads);
      keep("--head-dim", c.headDim, given.headDim);
      keep("--seq", c.seq, given.seq);
      keep("--batch", c.batch, given.batch);
      keep("--vocab", c.vocab, given.vocab);
    }
    if (o->ffn)
      c.ffn = o->ffn;
    else if (!o->preset.empty() || gpt->count("--d-model"))
      c.ffn = 4 * c.dModel;
    return run(*o, "gpt", [&] { return gen::generateGpt(c); });
  };
});

}  // namespace
}  // namespace autopart
