#!/usr/bin/env python3
"""Input shardings meeting a new mesh (issue 20, item 3), on the shared
models exported with their own mesh (`_axis_0`, `_axis_1`): by default
`plan --mesh data=2,model=4` stops with a located error naming both meshes
and writes nothing; `--input-shardings map` renames the axes and writes a
program autopart-opt's verifier accepts; `keep` needs the input's axes in
the new mesh; a tactics file's `input_shardings` does the same as the flag.

usage: input_shardings_test.py --autopart BIN --opt BIN --models DIR"""
import argparse, os, re, subprocess, sys, tempfile, unittest

ARGS = None


def plan(model, *extra):
    out = os.path.join(tempfile.mkdtemp(), "out.mlir")
    tactics = [] if "--tactics" in extra else ["--tactics", "dp"]
    p = subprocess.run([ARGS.autopart, "plan", os.path.join(ARGS.models, model), *tactics,
                        "-o", out, *extra], capture_output=True, text=True)
    return p, out


def verifies(path):
    p = subprocess.run([ARGS.opt, path], capture_output=True, text=True)
    return p.returncode == 0, p.stderr


class InputShardingsTest(unittest.TestCase):
    def test_default_stops_with_located_error_and_no_file(self):
        for model in ("kimi_k2_1layer_sharded.mlir", "gpt_oss_20b_sharded_2d.mlir"):
            p, out = plan(model, "--mesh", "data=2,model=4")
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertFalse(os.path.exists(out))
            self.assertRegex(p.stderr, re.escape(model) + r":\d+:\d+: error: the input's mesh @mesh = "
                             r'<\["_axis_0"=2, "_axis_1"=4\]> differs from --mesh <\["data"=2, "model"=4\]>')
            self.assertIn("uses axis", p.stderr)
            self.assertIn("--input-shardings", p.stderr)

    def test_map_renames_axes_and_output_verifies(self):
        for model in ("kimi_k2_1layer_sharded.mlir", "gpt_oss_20b_sharded_2d.mlir"):
            p, out = plan(model, "--mesh", "data=2,model=4", "--input-shardings", "map")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("_axis_0 -> data, _axis_1 -> model", p.stderr)
            text = open(out).read()
            self.assertNotIn("_axis_", text)
            self.assertIn('manual_axes={"data", "model"}', text)
            ok, err = verifies(out)
            self.assertTrue(ok, err)

    def test_keep_needs_the_input_axes(self):
        p, out = plan("kimi_k2_1layer_sharded.mlir", "--mesh", "data=2,model=4", "--input-shardings", "keep")
        self.assertEqual(p.returncode, 1)
        self.assertIn("--input-shardings keep:", p.stderr)
        self.assertFalse(os.path.exists(out))
        p, out = plan("kimi_k2_1layer_sharded.mlir", "--mesh", "_axis_0=2,_axis_1=4,pipe=2", "--input-shardings",
                      "keep", "--tactics", "dp:pipe")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn('sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4, "pipe"=2]>', open(out).read())
        ok, err = verifies(out)
        self.assertTrue(ok, err)

    def test_drop_refuses_manual_computations(self):
        p, out = plan("kimi_k2_1layer_sharded.mlir", "--mesh", "data=2,model=4", "--input-shardings", "drop")
        self.assertEqual(p.returncode, 1)
        self.assertIn("sdy.manual_computation cannot lose its shardings", p.stderr)

    def test_tactics_file_chooses_too(self):
        d = tempfile.mkdtemp()
        f = os.path.join(d, "s.yaml")
        open(f, "w").write("input_shardings: map\ntactics:\n  - {tactic: dp, axis: data}\n")
        p, out = plan("kimi_k2_1layer_sharded.mlir", "--mesh", "data=2,model=4", "--tactics", f)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("mapped", p.stderr)
        # The flag overrides the file.
        p, out = plan("kimi_k2_1layer_sharded.mlir", "--mesh", "data=2,model=4", "--tactics", f,
                      "--input-shardings", "keep")
        self.assertEqual(p.returncode, 1)

    def test_search_maps_and_writes_a_valid_plan(self):
        k = os.path.join(ARGS.models, "kimi_k2_1layer_sharded.mlir")
        out = os.path.join(tempfile.mkdtemp(), "s.mlir")
        p = subprocess.run([ARGS.autopart, "search", k, "--mesh", "data=2,model=4", "--iterations", "30",
                            "--time-budget", "10", "--seed", "1", "-o", out], capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertFalse(os.path.exists(out))
        p = subprocess.run([ARGS.autopart, "search", k, "--mesh", "data=2,model=4", "--iterations", "30",
                            "--time-budget", "10", "--seed", "1", "--input-shardings", "map", "-o", out],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("_axis_", open(out).read())
        ok, err = verifies(out)
        self.assertTrue(ok, err)

    def test_simulate_on_a_new_mesh(self):
        g = os.path.join(ARGS.models, "gpt_oss_20b_sharded_2d.mlir")
        p = subprocess.run([ARGS.autopart, "simulate", g, "--mesh", "data=2,model=4"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        p = subprocess.run([ARGS.autopart, "simulate", g, "--mesh", "data=2,model=4", "--input-shardings", "map"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("note: mapped 515 input sharding(s)", p.stderr)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--autopart", required=True)
    ap.add_argument("--opt", required=True)
    ap.add_argument("--models", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest)
