#!/usr/bin/env python3
"""The HTML plan report (docs/report.md) on the largest shared model (by file
size, ../shared/models): plans it, writes its report and renders the page in
headless Chromium to a screenshot. Prints the page's size, the time
`autopart report` takes (parse, simulate, write) and Chromium's time from
start to the screenshot written, each the median of a few runs.

  bench/report.py [BUILD_DIR] > table.md
"""
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
autopart = os.path.join(build, "bin", "autopart")
models = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "models")
mesh, tactics, device = "data=2,model=4", "dp,megatron", "h100-80gb"
runs = 5


def timed(args):
    start = time.time()
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(" ".join(args) + " failed:\n" + p.stderr[-2000:])
    return time.time() - start


browser = shutil.which("chromium") or shutil.which("chromium-browser")
if not browser:
    sys.exit("chromium is not installed (scripts/install-deps.sh)")
model = max(glob.glob(os.path.join(models, "*.mlir")), key=os.path.getsize)

with tempfile.TemporaryDirectory() as tmp:
    plan, page, shot = (os.path.join(tmp, n) for n in ("plan.mlir", "report.html", "report.png"))
    plan_seconds = timed([autopart, "plan", model, "--mesh", mesh, "--tactics", tactics, "-o", plan])
    simulate = statistics.median(timed([autopart, "simulate", plan, "--device", device, "--json"]) for _ in range(runs))
    report = statistics.median(timed([autopart, "report", plan, "--device", device, "-o", page]) for _ in range(runs))
    size = os.path.getsize(page)
    render = []
    for _ in range(runs):
        profile = tempfile.mkdtemp(dir=tmp)
        render.append(timed([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                             "--disable-background-networking", "--disable-component-update", "--disable-sync",
                             "--user-data-dir=" + profile, "--window-size=1400,2400", "--screenshot=" + shot,
                             "file://" + page]))
    render_seconds = statistics.median(render)

print("| model | file | plan | `autopart simulate` | `autopart report` | page | Chromium to screenshot | report + render |")
print("|---|---|---|---|---|---|---|---|")
print("| %s | %.0f KiB | %s %s | %.3f s | %.3f s | %.0f KiB | %.2f s | %.2f s |" % (
    os.path.basename(model), os.path.getsize(model) / 1024, tactics, mesh, simulate, report, size / 1024,
    render_seconds, report + render_seconds))
print("\n(median of %d runs; plan took %.2f s)" % (runs, plan_seconds))
