#!/usr/bin/env python3
"""The CLI flags the README documents do what it says, each checked against
the run without it (so a flag that did nothing would fail): stats / analyze /
devices --json, simulate --ablate / --sync-collectives / --no-propagate,
search --json / --levers / --anneal-steps / --refine-starts / --rollout /
--no-propagate.

usage: cli_flags_test.py --autopart BIN --root SRC"""
import argparse, json, os, subprocess, sys, tempfile, unittest

ARGS = None


def run(*cmd, ok=True):
    p = subprocess.run([ARGS.autopart, *cmd], capture_output=True, text=True)
    if ok and p.returncode != 0:
        raise AssertionError(f"autopart {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return p


def js(*cmd):
    return json.loads(run(*cmd).stdout)


def example(name):
    return os.path.join(ARGS.root, "examples", name)


class Flags(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        # A dp+megatron plan of the tiny GPT step: collectives of both kinds.
        cls.planned = os.path.join(cls.tmp.name, "gpt_planned.mlir")
        run("plan", example("gpt_tiny.mlir"), "--mesh", "data=2,model=2", "--tactics", "dp,megatron",
            "-o", cls.planned)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_stats_json(self):
        j = js("stats", example("gpt_tiny.mlir"), "--json")
        f = j["functions"][0]
        self.assertEqual(f["arguments"]["count"], 86)
        self.assertGreater(f["flops"], 1e9)

    def test_analyze_json(self):
        j = js("analyze", example("gpt_tiny.mlir"), "--json", "--mesh", "data=2,model=2")
        self.assertEqual(j["mesh_axes"], 2)
        self.assertGreater(j["names"], 0)
        self.assertLess(j["log10_space_after"], j["log10_space_before"])
        self.assertEqual(len(j["conflict_list"]), j["conflicts"])

    def test_devices_json(self):
        names = [d["name"] for d in js("devices", "--json")]
        self.assertIn("h100-80gb", names)
        self.assertIn("tpu-v5e", names)

    def test_simulate_ablate_all_is_the_unfused_roofline(self):
        base = js("simulate", self.planned, "--json")
        ablated = js("simulate", self.planned, "--json", "--ablate", "all")
        # No fusion, peak throughput, no overlap: more kernels, no hidden communication.
        self.assertGreater(ablated["kernel_count"], base["kernel_count"])
        self.assertNotEqual(ablated["step_seconds"], base["step_seconds"])

    def test_simulate_sync_collectives_exposes_communication(self):
        base = js("simulate", self.planned, "--json")
        sync = js("simulate", self.planned, "--json", "--sync-collectives")
        self.assertGreater(base["communication_seconds"], 0)
        self.assertGreater(sync["exposed_communication_seconds"], base["exposed_communication_seconds"])
        self.assertGreaterEqual(sync["step_seconds"], base["step_seconds"])

    def test_simulate_no_propagate_on_a_complete_plan_changes_nothing(self):
        a = js("simulate", self.planned, "--json")
        b = js("simulate", self.planned, "--json", "--no-propagate")
        self.assertEqual(a["step_seconds"], b["step_seconds"])
        self.assertFalse(b["input_shardings"]["propagated"])
        self.assertTrue(a["input_shardings"]["propagated"])

    def test_plan_report_json_and_html(self):
        out = os.path.join(self.tmp.name, "p.mlir")
        rj = os.path.join(self.tmp.name, "p.json")
        page = os.path.join(self.tmp.name, "p.html")
        run("plan", example("gpt_tiny.mlir"), "--mesh", "data=2,model=2", "--tactics", "dp,megatron", "-o", out,
            "--report-json", rj, "--html", page)
        with open(rj) as f:
            j = json.load(f)
        self.assertEqual([t["kind"] for t in j["tactics"]], ["dp", "megatron"])
        self.assertEqual(j["specs"]["mesh"], {"data": 2, "model": 2})
        # The JSON's simulation is what simulate says of the written plan.
        self.assertEqual(j["simulation"]["step_seconds"], js("simulate", out, "--json")["step_seconds"])
        with open(page) as f:
            html = f.read()
        self.assertIn("dp,megatron", html)
        self.assertIn('id="autopart-data"', html)
        # A bad device: an error naming the flag, no page.
        bad = os.path.join(self.tmp.name, "bad.html")
        p = run("plan", example("gpt_tiny.mlir"), "--mesh", "data=2,model=2", "--tactics", "dp", "-o", out,
                "--html", bad, "--device", "nosuch", ok=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertFalse(os.path.exists(bad))

    def test_search_html_shows_the_methods(self):
        page = os.path.join(self.tmp.name, "s.html")
        j = self.search("--method", "mcts,dp", "--html", page)
        with open(page) as f:
            html = f.read()
        rows = html[html.index('id="search-table"'):].split("</tbody>")[0]
        for r in j["results"]:
            self.assertIn("<td>" + r["method"], rows)

    def search(self, *extra, program=None):
        return js("search", program or example("gpt_tiny.mlir"), "--mesh", "data=2,model=2", "--json",
                  "--iterations", "30", "--time-budget", "3", "--seed", "1", *extra)

    def test_search_json_and_levers_list(self):
        j = self.search("--levers", "remat:full")
        self.assertEqual(j["levers"], "remat:full")
        self.assertIn("levers_summary", j)
        self.assertEqual(self.search("--levers", "none")["levers"], "none")
        r = j["results"][0]
        self.assertEqual(r["method"], "mcts")
        self.assertTrue(r["found"])

    def test_search_anneal_steps_and_refine_starts(self):
        descent = self.search("--anneal-steps", "0", "--refine-starts", "1", "--no-portfolio")["results"][0]
        self.assertIn("0 annealing moves", " ".join(descent["actions"]))
        self.assertIn("best of 1 start", " ".join(descent["actions"]))

    def test_search_rollout(self):
        self.assertTrue(self.search("--rollout", "greedy")["results"][0]["found"])
        bad = run("search", example("gpt_tiny.mlir"), "--rollout", "smart", ok=False)
        self.assertNotEqual(bad.returncode, 0)

    def test_search_no_propagate(self):
        # On the plan's own output nothing is left to complete.
        planned = self.search("--method", "dp", program=self.planned)
        self.assertTrue(planned["input_shardings"]["propagated"])
        self.assertEqual(planned["input_shardings"]["updates"], 0)
        # The tiny GPT with only its embedding sharded: propagation reaches
        # the ops, unless --no-propagate.
        with open(example("gpt_tiny.mlir")) as f:
            text = f.read()
        head, body = text.split("\n", 1)
        wte = "%arg0: tensor<1024x256xbf16> {jax.arg_info = \"params['wte']\""
        self.assertIn(wte, body)
        body = body.replace(wte, wte + ', sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>', 1)
        one = os.path.join(self.tmp.name, "one_sharded.mlir")
        with open(one, "w") as f:
            f.write(head + '\n  sdy.mesh @mesh = <["data"=2, "model"=2]>\n' + body)
        j = self.search("--method", "dp", program=one)
        self.assertEqual(j["input_shardings"]["user"], 1)
        self.assertGreater(j["input_shardings"]["updates"], 10)
        k = self.search("--method", "dp", "--no-propagate", program=one)
        self.assertFalse(k["input_shardings"]["propagated"])
        self.assertEqual(k["input_shardings"]["user"], 1)

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--autopart", required=True)
    ap.add_argument("--root", required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest)
