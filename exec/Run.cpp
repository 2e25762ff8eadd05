#include "exec/Run.h"

#include <random>

#include "exec/ProbeStore.h"

namespace autopart::exec {

bool RunResult::ok() const {
  if (!failures.empty()) return false;
  for (const FunctionRun &f : functions)
    if (f.failed) return false;
  return true;
}

bool isCheckOp(const Module &m, OpId op) {
  std::string_view n = m.opName(op);
  if (n.starts_with("check.")) return true;
  if (n != "stablehlo.custom_call") return false;
  return m.attrs.stringValue(m.attr(op, "call_target_name")).starts_with("check.");
}

TensorPtr randomTensor(const TypeTable &types, TypeId t, uint64_t seed) {
  TensorPtr r = makeTensorOfType(types, t);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_int_distribution<int> ints(r->dtype.isSigned ? -10 : 0, 10);
  int64_t n = r->numElements();
  visitStorage(r->dtype.storage, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *p = r->data<T>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (kIsComplex<T>) p[i] = T(typename T::value_type(normal(rng)), typename T::value_type(normal(rng)));
      else if constexpr (kIsFloat<T>) p[i] = T(normal(rng));
      else p[i] = r->dtype.isBool() ? T(rng() & 1) : T(ints(rng));
    }
  });
  normalize(*r);
  return r;
}

RunResult runModule(const Module &m, const RunOptions &opts) {
  RunResult res;
  m.walk(m.top, [&](OpId op) { res.checksTotal += isCheckOp(m, op); });
  std::vector<OpId> funcs;
  if (!opts.entry.empty()) {
    OpId f = m.lookupSymbol(opts.entry);
    if (f == kNone || !m.isa(f, "func.func")) {
      FunctionRun fr;
      fr.name = opts.entry;
      fr.failed = true;
      fr.error = "no function @" + opts.entry;
      res.functions.push_back(fr);
      return res;
    }
    funcs.push_back(f);
  } else if (OpId main = m.lookupSymbol("main"); main != kNone && m.isa(main, "func.func")) {
    funcs.push_back(main);
  } else {
    for (OpId f : m.functions())
      if (FuncView{m, f}.args().empty() && m.numRegions(f) && !m.regions[m.region(f, 0)].blocks.empty())
        funcs.push_back(f);
  }
  ProbeStore probes;  // one per run: a probe id's iterations count from 0
  for (OpId f : funcs) {
    FunctionRun fr;
    fr.func = f;
    fr.name = std::string(FuncView{m, f}.name());
    Interpreter I(m);
    I.seed = opts.seed;
    I.probes = &probes;
    try {
      std::vector<TensorPtr> args = opts.args;
      uint64_t k = 0;
      std::span<const ValueId> params = FuncView{m, f}.args();
      if (!args.empty() && args.size() != params.size())
        throw std::runtime_error("@" + fr.name + " takes " + std::to_string(params.size()) + " arguments, " +
                                 std::to_string(args.size()) + " given");
      for (size_t i = 0; i < args.size(); ++i) {
        TensorPtr want = makeTensorOfType(m.types, m.type(params[i]));
        if (!(want->dtype == args[i]->dtype) || want->shape != args[i]->shape)
          throw std::runtime_error("argument " + std::to_string(i) + " is " + args[i]->typeString() + ", @" + fr.name +
                                   " takes " + want->typeString());
      }
      for (ValueId a : args.empty() ? params : std::span<const ValueId>{}) {
        TypeId t = m.type(a);
        args.push_back(opts.inputs == "zeros" ? makeTensorOfType(m.types, t)
                                              : randomTensor(m.types, t, opts.seed * 1000003 + k++));
      }
      fr.results = I.callFunction(f, args);
    } catch (const ExecError &e) {
      fr.failed = true;
      fr.errorOp = e.op;
      fr.error = e.what();
    } catch (const std::exception &e) {
      fr.failed = true;
      fr.errorOp = f;
      fr.error = e.what();
    }
    res.checksPassed += I.checksPassed;
    res.failures.insert(res.failures.end(), I.failures.begin(), I.failures.end());
    res.functions.push_back(std::move(fr));
  }
  return res;
}

}  // namespace autopart::exec
