"""The Python package against the CLI: the same reports (analyze, simulate,
search --json), the same annotated text and PartitionSpecs (plan --specs),
errors located as the CLI prints them, the GIL released while searching,
the progress callable, and seeds.

Run by ctest with PYTHONPATH at <build>/python and AUTOPART_BIN at the
autopart binary; by hand:
  PYTHONPATH=build/python AUTOPART_BIN=build/bin/autopart python3 -m unittest discover tests/python
"""
import json
import os
import subprocess
import tempfile
import unittest

import autopart

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
AUTOPART = os.environ.get("AUTOPART_BIN", os.path.join(ROOT, "build", "bin", "autopart"))
MLP = os.path.join(EXAMPLES, "mlp_forward.mlir")
GPT = os.path.join(EXAMPLES, "gpt_tiny.mlir")
# Wall-clock fields: the only ones two runs of the same request may differ in.
TIMING_KEYS = {"search_seconds", "seconds"}


def read(path):
    with open(path) as f:
        return f.read()


def cli(*args):
    p = subprocess.run([AUTOPART, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError(f"autopart {' '.join(args)} failed ({p.returncode}):\n{p.stderr}")
    return p.stdout


def without_timing(value):
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


class AnalyzeTest(unittest.TestCase):
    def test_equals_cli_json(self):
        for path in (MLP, GPT):
            with self.subTest(path=path):
                self.assertEqual(autopart.analyze(read(path), file_name=path),
                                 json.loads(cli("analyze", path, "--json")))

    def test_mesh_as_dict_or_string(self):
        text = read(MLP)
        expected = json.loads(cli("analyze", MLP, "--json", "--mesh", "a=2,b=2,c=2"))
        self.assertEqual(autopart.analyze(text, mesh={"a": 2, "b": 2, "c": 2}, file_name=MLP), expected)
        self.assertEqual(autopart.analyze(text, mesh="a=2,b=2,c=2", file_name=MLP), expected)


class SimulateTest(unittest.TestCase):
    def test_equals_cli_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            planned = os.path.join(tmp, "planned.mlir")
            cli("plan", GPT, "--mesh", "data=4,model=2", "--tactics", "dp,megatron", "-o", planned)
            text = read(planned)
            for device, propagate in (("h100-80gb", True), ("tpu-v4", False)):
                with self.subTest(device=device, propagate=propagate):
                    args = ["simulate", planned, "--json", "--device", device]
                    if not propagate:
                        args.append("--no-propagate")
                    self.assertEqual(autopart.simulate(text, device=device, propagate=propagate, file_name=planned),
                                     json.loads(cli(*args)))

    def test_ablate(self):
        text = read(MLP)
        self.assertEqual(autopart.simulate(text, mesh={"data": 8}, ablate=["fusion", "overlap"], file_name=MLP),
                         json.loads(cli("simulate", MLP, "--mesh", "data=8", "--json", "--ablate", "fusion,overlap")))


class PlanTest(unittest.TestCase):
    def test_text_and_specs_equal_cli(self):
        with tempfile.TemporaryDirectory() as tmp:
            specs_path = os.path.join(tmp, "specs.json")
            out = cli("plan", MLP, "--mesh", "data=8,model=4", "--tactics", "dp,megatron", "--specs", specs_path)
            specs = json.loads(read(specs_path))
        p = autopart.plan(read(MLP), mesh={"data": 8, "model": 4}, tactics=["dp", "megatron"], file_name=MLP)
        self.assertEqual(p.text, out)
        self.assertEqual(p.specs, specs)
        self.assertEqual(p.mesh, {"data": 8, "model": 4})
        self.assertEqual(p.arg_names, ("params['w1']", "params['b1']", "params['w2']", "batch['x']", "batch['y']"))
        self.assertEqual(p.in_specs, ((None, "model"), ("model",), ("model", None), ("data", None), ("data", None)))
        self.assertEqual(len(p.out_specs), 1)

    def test_multi_axis_spec_is_a_tuple(self):
        p = autopart.plan(read(MLP), mesh={"data": 8, "model": 4}, tactics=["dp:data", "dp:model"])
        self.assertEqual(p.in_specs[3], (("data", "model"), None))

    def test_report_is_the_simulation_of_the_text(self):
        p = autopart.plan(read(MLP), mesh={"data": 8, "model": 4}, tactics="dp,megatron")
        self.assertEqual(p.report, p.simulation)
        self.assertEqual(p.report["step_seconds"], autopart.simulate(p.text)["step_seconds"])
        self.assertEqual([t["tactic"] for t in p.tactics], ["dp", "megatron"])
        q = autopart.plan(read(MLP), mesh={"data": 8, "model": 4}, tactics=["dp"], simulate=False)
        self.assertIsNone(q.simulation)
        self.assertEqual(q.report, q.tactics)

    def test_same_seed_same_plan(self):
        text = read(MLP)
        runs = [autopart.plan(text, mesh={"data": 8, "model": 4}, tactics=["dp", "auto"], seed=seed,
                              iterations=200, time_budget=120, simulate=False)
                for seed in (7, 7)]
        self.assertEqual(runs[0].text, runs[1].text)
        self.assertEqual(runs[0].in_specs, runs[1].in_specs)

    def test_equals_cli_with_seed(self):
        text = read(MLP)
        p = autopart.plan(text, mesh={"data": 8, "model": 4}, tactics=["auto"], seed=3, iterations=200,
                          time_budget=120, simulate=False, file_name=MLP)
        out = cli("plan", MLP, "--mesh", "data=8,model=4", "--tactics", "auto", "--seed", "3",
                  "--iterations", "200", "--time-budget", "120")
        self.assertEqual(p.text, out)


class ReportTest(unittest.TestCase):
    def test_page_equals_cli(self):
        p = autopart.plan(read(MLP), mesh={"data": 8, "model": 4}, tactics="dp,megatron")
        with tempfile.TemporaryDirectory() as tmp:
            planned = os.path.join(tmp, "plan.mlir")
            with open(planned, "w") as f:
                f.write(p.text)
            cli("report", planned, "--device", "a100-80gb", "--title", "mlp", "-o", os.path.join(tmp, "p.html"))
            expected = read(os.path.join(tmp, "p.html"))
        page = autopart.report(p.text, device="a100-80gb", title="mlp", file_name=planned)
        self.assertEqual(page, expected)

    def test_search_methods_side_by_side(self):
        s = autopart.search(read(MLP), mesh={"data": 8, "model": 4}, method="mcts,dp", iterations=10, time_budget=1)
        page = autopart.report(s.text, search=s)
        rows = page[page.index('id="search-table"'):].split("</tbody>")[0]
        self.assertIn("<td>dp", rows)
        with self.assertRaises(autopart.Error):
            autopart.report(s.text, search={"not": "a search"})


class InputShardingsTest(unittest.TestCase):
    """The program's own mesh and shardings meeting another mesh, as the
    CLI's --input-shardings (docs/input-shardings.md)."""
    TEXT = ('sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>\n'
            'func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"_axis_0"}, {"_axis_1"}]>})'
            ' -> tensor<8x16xf32> {\n'
            '  %0 = stablehlo.abs %a : tensor<8x16xf32>\n'
            '  return %0 : tensor<8x16xf32>\n}\n')

    def test_default_is_a_located_error(self):
        with self.assertRaises(autopart.Error) as caught:
            autopart.plan(self.TEXT, mesh={"data": 2, "model": 4}, tactics=["dp"], file_name="x.mlir")
        e = caught.exception
        self.assertEqual((e.file, e.line), ("x.mlir", 2))
        self.assertIn("differs from --mesh", str(e))

    def test_map_equals_cli(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "x.mlir")
            with open(path, "w") as f:
                f.write(self.TEXT)
            out = cli("plan", path, "--mesh", "data=2,model=4", "--tactics", "dp", "--input-shardings", "map")
            p = autopart.plan(self.TEXT, mesh={"data": 2, "model": 4}, tactics=["dp"], input_shardings="map",
                              file_name=path)
        self.assertEqual(p.text, out)
        self.assertIn('#sdy.sharding<@mesh, [{"data"}, {"model"}]>', p.text)
        self.assertNotIn("_axis_", p.text)

    def test_bad_policy(self):
        with self.assertRaises(autopart.Error):
            autopart.simulate(self.TEXT, mesh={"data": 2, "model": 4}, input_shardings="rename")


class ErrorTest(unittest.TestCase):
    def test_parse_error_is_located(self):
        text = "func.func @main(%a: tensor<8xf32>) {\n  %0 = stablehlo.add %a, \n}\n"
        for call in (autopart.analyze, autopart.simulate, autopart.plan, autopart.search):
            with self.subTest(call=call.__name__):
                with self.assertRaises(autopart.Error) as caught:
                    call(text, file_name="bad.mlir")
                e = caught.exception
                self.assertIsInstance(e, ValueError)
                self.assertEqual((e.file, e.line, e.col), ("bad.mlir", 2, 24))
                self.assertEqual(str(e), "bad.mlir:2:24: error: expected ':', found ','")

    def test_message_as_cli_prints_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "bad.mlir")
            with open(path, "w") as f:
                f.write("func.func @main(\n")
            p = subprocess.run([AUTOPART, "analyze", path], capture_output=True, text=True)
            with self.assertRaises(autopart.Error) as caught:
                autopart.analyze(read(path), file_name=path)
            self.assertEqual(str(caught.exception), p.stderr.strip())

    def test_unlocated_errors(self):
        text = read(MLP)
        cases = [
            (lambda: autopart.analyze(text, mesh="data=x"), "--mesh"),
            (lambda: autopart.simulate(text, device="no-such-device"), "--device"),
            (lambda: autopart.plan(text, tactics=["no-such-tactic"]), "--tactics"),
            (lambda: autopart.plan(text, mesh=None, tactics=["dp"]), "no mesh"),
            (lambda: autopart.search(text, mesh={"data": 2}, method="no-such-method"), "--method"),
        ]
        for call, what in cases:
            with self.subTest(what=what):
                with self.assertRaises(autopart.Error) as caught:
                    call()
                self.assertIn(what, str(caught.exception))
                self.assertIsNone(caught.exception.line)


if __name__ == "__main__":
    unittest.main()
