#!/usr/bin/env python3
"""The HTML plan report in a real browser: plans a shared model, writes its
report (with a search's methods side by side), renders the page in headless
Chromium and checks that

  (a) no script error or console error happened (the page records them in
      its self-check; Chromium's own console log is read too),
  (b) the plots and tables have content: the memory line has as many points
      as the data says and more than 10, the step bars have width, the
      argument table has one row per argument,
  (c) a screenshot could be taken,

and that bad input gives `file:line:col: error: ...`, a non-zero exit and no
output file. Without Chromium the test fails: `make test` installs it
(scripts/install-deps.sh)."""
import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars"]


# Sorts the argument table by its last column (bytes per device) twice and
# clicks the first location link, then writes what it saw into the page.
PROBE = """<script>
(function () {
  var th = document.querySelectorAll('#argument-table thead th');
  var last = th[th.length - 1];
  last.click(); last.click();
  var bytes = Array.prototype.map.call(document.querySelectorAll('#argument-table tbody tr'),
      function (r) { return parseFloat(r.cells[r.cells.length - 1].getAttribute('data-v')); });
  var link = document.querySelector('a.loc');
  if (link) link.click();
  var viewer = document.getElementById('source-viewer');
  var out = document.createElement('pre');
  out.id = 'probe';
  out.textContent = JSON.stringify({bytes: bytes, viewer_hidden: viewer.hidden,
      viewer_text: viewer.querySelector('pre').textContent, errors: window.__autopartErrors});
  document.body.appendChild(out);
})();
</script>
"""


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def chromium(binary, args, timeout=120):
    profile = tempfile.mkdtemp(prefix="autopart-chromium-")
    try:
        return run([binary] + CHROMIUM_FLAGS + ["--user-data-dir=" + profile] + args, timeout=timeout)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--autopart", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("--work", required=True, help="directory for the plan, page and screenshot")
    p.add_argument("--mesh", default="data=2,model=4")
    p.add_argument("--tactics", default="dp,megatron")
    p.add_argument("--device", default="h100-80gb")
    a = p.parse_args()

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        fail("chromium is not installed (scripts/install-deps.sh installs it)")
    os.makedirs(a.work, exist_ok=True)
    plan = os.path.join(a.work, "plan.mlir")
    search = os.path.join(a.work, "search.json")
    page = os.path.join(a.work, "report.html")
    shot = os.path.join(a.work, "report.png")
    for f in (plan, search, page, shot):
        if os.path.exists(f):
            os.remove(f)

    r = run([a.autopart, "plan", a.model, "--mesh", a.mesh, "--tactics", a.tactics, "-o", plan])
    if r.returncode != 0:
        fail("autopart plan failed:\n" + r.stderr)
    r = run([a.autopart, "search", a.model, "--mesh", a.mesh, "--device", a.device,
             "--method", "greedy,dp+megatron", "--time-budget", "2", "--json"])
    if r.returncode != 0:
        fail("autopart search failed:\n" + r.stderr)
    with open(search, "w") as f:
        f.write(r.stdout)
    methods = len(json.loads(r.stdout)["results"])
    start = time.time()
    r = run([a.autopart, "report", plan, "--device", a.device, "--search", search, "-o", page])
    if r.returncode != 0:
        fail("autopart report failed:\n" + r.stderr)
    print("report: %d bytes in %.3f s" % (os.path.getsize(page), time.time() - start))
    text = open(page, encoding="utf-8").read()
    # Self-contained: nothing that loads from elsewhere.
    remote = re.search(r"""(?:src|href|action)\s*=\s*["']?\s*(?:https?:|//|ftp:)""", text, re.I)
    if remote:
        fail("the page refers to a remote resource: " + remote.group(0))
    if "default-src 'none'" not in text:
        fail("the page has no Content-Security-Policy forbidding fetches")

    # (a), (b): the DOM after the page's scripts ran, with its self-check.
    r = chromium(browser, ["--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + os.path.abspath(page)])
    if r.returncode != 0:
        fail("chromium --dump-dom failed:\n" + r.stderr[-2000:])
    m = re.search(r'<pre id="self-check">(.*?)</pre>', r.stdout, re.S)
    if not m or not m.group(1).strip():
        fail("no self-check in the rendered page (its script did not run)")
    check = json.loads(html.unescape(m.group(1)))
    print("self-check:", json.dumps(check))
    console = [l for l in r.stderr.splitlines() if "CONSOLE" in l or "Uncaught" in l]
    if console:
        fail("console messages while rendering:\n" + "\n".join(console))
    if check["errors"]:
        fail("script errors: %s" % check["errors"])
    if check["memory_points"] <= 10 or check["memory_points"] != check["memory_expected"]:
        fail("memory plot has %d points, expected %d (> 10)" % (check["memory_points"], check["memory_expected"]))
    if not any(w > 0 for w in check["step_bar_widths"]):
        fail("the step bars have no width")
    arguments = len(re.findall(r"<tr>", r.stdout.split('id="argument-table"')[1].split("</table>")[0])) - 1
    if check["argument_rows"] != check["argument_expected"] or check["argument_rows"] != arguments or arguments <= 0:
        fail("argument table has %d rows, expected %d" % (check["argument_rows"], check["argument_expected"]))
    if check["search_rows"] != methods:
        fail("search table has %d rows, expected %d" % (check["search_rows"], methods))
    if not check["ok"]:
        fail("the page's self-check failed")

    # Interaction, on a copy of the page with a script that acts as a reader:
    # sorting the argument table by bytes (twice: descending), clicking the
    # first source location.
    probe = os.path.join(a.work, "probe.html")
    with open(probe, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", PROBE + "</body>"))
    r = chromium(browser, ["--dump-dom", "file://" + os.path.abspath(probe)])
    m = re.search(r'<pre id="probe">(.*?)</pre>', r.stdout, re.S)
    if not m:
        fail("the interaction probe did not run:\n" + r.stderr[-2000:])
    probe_result = json.loads(html.unescape(m.group(1)))
    print("interaction:", json.dumps(probe_result)[:300])
    if probe_result["bytes"] != sorted(probe_result["bytes"], reverse=True) or len(probe_result["bytes"]) < 2:
        fail("sorting the argument table by bytes per device did not sort it")
    if probe_result["viewer_hidden"] or not probe_result["viewer_text"].strip():
        fail("clicking a location did not show its source line")
    if probe_result["errors"]:
        fail("script errors while interacting: %s" % probe_result["errors"])

    # (c) a screenshot.
    start = time.time()
    r = chromium(browser, ["--window-size=1400,2400", "--screenshot=" + shot, "file://" + os.path.abspath(page)])
    if r.returncode != 0 or not os.path.exists(shot) or os.path.getsize(shot) < 10000:
        fail("no screenshot:\n" + r.stderr[-2000:])
    print("screenshot: %s (%d bytes, %.2f s)" % (shot, os.path.getsize(shot), time.time() - start))

    # Bad input: located error, non-zero exit, no file.
    bad = os.path.join(a.work, "bad.mlir")
    with open(bad, "w") as f:
        f.write("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = stablehlo.exponential %a :\n}\n")
    bad_page = os.path.join(a.work, "bad.html")
    if os.path.exists(bad_page):
        os.remove(bad_page)
    r = run([a.autopart, "report", bad, "-o", bad_page])
    if r.returncode == 0 or not re.search(re.escape(bad) + r":\d+:\d+: error: ", r.stderr):
        fail("bad input: exit %d, stderr:\n%s" % (r.returncode, r.stderr))
    if os.path.exists(bad_page):
        fail("bad input left an output file")
    r = run([a.autopart, "report", plan, "--search", bad, "-o", bad_page])
    if r.returncode == 0 or os.path.exists(bad_page) or "error" not in r.stderr:
        fail("a bad --search file: exit %d, stderr:\n%s" % (r.returncode, r.stderr))
    print("ok")


if __name__ == "__main__":
    main()
