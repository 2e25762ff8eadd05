"""autopart.search against the CLI (the same --json report, the same -o
text), seeds, the GIL released while it searches, the progress callable.
Run as test_api.py is."""
import json
import os
import tempfile
import threading
import time
import unittest

import autopart
from test_api import GPT, MLP, cli, read, without_timing


class SearchTest(unittest.TestCase):
    def test_report_equals_cli_json(self):
        text = read(MLP)
        r = autopart.search(text, mesh={"data": 8, "model": 4}, method=["greedy", "expert"], file_name=MLP)
        expected = json.loads(cli("search", MLP, "--mesh", "data=8,model=4", "--method", "greedy,expert", "--json"))
        self.assertEqual(without_timing(r.report), without_timing(expected))
        self.assertEqual(r.best["method"], "greedy")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "plan.mlir")
            cli("search", MLP, "--mesh", "data=8,model=4", "--method", "greedy", "-o", out)
            self.assertEqual(r.text, read(out))
        self.assertEqual(len(r.in_specs), 5)

    def test_same_seed_same_plan(self):
        text = read(MLP)
        a, b = (autopart.search(text, mesh={"data": 8, "model": 4}, iterations=200, seed=5, time_budget=60)
                for _ in range(2))
        self.assertEqual(a.text, b.text)
        self.assertEqual(a.in_specs, b.in_specs)

    def test_releases_the_gil(self):
        """A Python thread counts while the search runs: it holds no GIL."""
        count = 0
        stop = threading.Event()

        def counter():
            nonlocal count
            while not stop.is_set():
                count += 1
                time.sleep(0.001)

        t = threading.Thread(target=counter)
        t.start()
        try:
            time.sleep(0.05)
            before = count
            start = time.monotonic()
            autopart.search(read(GPT), mesh={"data": 4, "model": 2}, time_budget=1.5, levers="none")
            elapsed = time.monotonic() - start
            during = count - before
        finally:
            stop.set()
            t.join()
        self.assertGreater(elapsed, 0.5)
        # Held GIL: the counter would not move for the whole call.
        self.assertGreater(during, 50, f"counter advanced {during} times in {elapsed:.2f} s")

    def test_progress_callback(self):
        calls = []
        s = autopart.search(read(MLP), mesh={"data": 8, "model": 4}, time_budget=1, progress=calls.append)
        self.assertGreaterEqual(len(calls), 2)
        last = calls[-1]
        self.assertEqual(set(last), {"iterations", "best_step_seconds", "best_peak_bytes", "best_fits", "seconds",
                                     "phase"})
        # The tree search first, then the refinement, reported to the end.
        self.assertEqual(calls[0]["phase"], "tree search")
        self.assertEqual(last["phase"], "refining")
        # The last report comes at the end of the search, whether the budget or
        # the iteration cap ended it (a fast machine reaches the cap first).
        searched = s.report["results"][0]["search_seconds"]
        self.assertGreater(last["seconds"], 0.8 * searched)
        self.assertLessEqual(last["seconds"], searched)
        self.assertGreater(last["iterations"], 0)
        self.assertGreater(last["best_step_seconds"], 0)
        self.assertGreaterEqual(last["iterations"], calls[0]["iterations"])

    def test_progress_reports_lever_trials(self):
        # A GPT step that does not fit a v5e by sharding alone: the levers'
        # trials are reported as they end, each with its configuration.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "gpt.mlir")
            cli("gen", "gpt", "--layers", "2", "--d-model", "512", "--heads", "8", "--seq", "1024", "--batch", "1024",
                "-o", path)
            calls = []
            s = autopart.search(read(path), mesh={"data": 2}, device="tpu-v5e", iterations=10, time_budget=2,
                                progress=calls.append)
        trials = [c for c in calls if c["phase"].startswith("levers ")]
        self.assertEqual(len(trials), len(s.report["lever_trials"]))
        self.assertEqual([c["phase"] for c in trials], ["levers " + t["levers"] for t in s.report["lever_trials"]])
        self.assertIn(True, [c["best_fits"] for c in trials])

    def test_progress_exception_is_raised(self):
        def fail(_):
            raise KeyError("stop")

        with self.assertRaises(KeyError):
            autopart.search(read(MLP), mesh={"data": 2}, time_budget=0.5, progress=fail)


if __name__ == "__main__":
    unittest.main()
