#include "report/PageAssets.h"

namespace autopart {

const char *const kReportCss = R"css(
:root { --ink: #1f2430; --muted: #5b6475; --line: #dde1e8; --card: #ffffff; --bg: #f4f6f9;
        --compute: #4e79a7; --exposed: #e15759; --hidden: #59a14f; --accent: #2f6fdb; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
       font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "DejaVu Sans", Arial, sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 20px 24px 80px; }
header.top { padding: 18px 0 8px; }
header.top h1 { margin: 0 0 4px; font-size: 22px; font-weight: 650; }
header.top .sub { color: var(--muted); }
code, .mono, td.mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
section.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin: 16px 0; }
section.card h2 { margin: 0 0 10px; font-size: 17px; font-weight: 650; }
section.card h3 { margin: 16px 0 6px; font-size: 14px; font-weight: 650; }
p.note { color: var(--muted); margin: 4px 0 10px; }
.tiles { display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 12px; margin: 12px 0 4px; }
.tile { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; }
.tile .k { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.tile .v { font-size: 20px; font-weight: 650; margin-top: 2px; }
.tile .d { color: var(--muted); font-size: 12px; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; }
.badge.ok { background: #e3f4e6; color: #1e7b34; }
.badge.bad { background: #fde6e6; color: #b42323; }
.badge.chosen { background: #e4ecfb; color: #2450a6; }
.warn { background: #fff7e0; border: 1px solid #f1d98b; border-radius: 6px; padding: 6px 10px; margin: 6px 0; }
svg { display: block; max-width: 100%; height: auto; }
svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif; fill: var(--ink); }
svg .axis { stroke: #9aa3b2; stroke-width: 1; }
svg .grid { stroke: #eceff3; stroke-width: 1; }
svg .tick { font-size: 11px; fill: var(--muted); }
svg .halo { paint-order: stroke; stroke: #ffffff; stroke-width: 4px; stroke-linejoin: round; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; margin: 6px 0 2px; }
.legend span.sw { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
.scroll { max-height: 520px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 5px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: #f0f2f6; font-weight: 600; font-size: 12.5px; position: sticky; top: 0; z-index: 1; white-space: nowrap; }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.wrap { word-break: break-all; }
tbody tr:nth-child(even) td { background: #fafbfc; }
tr.chosen td { background: #eef3fd !important; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: " \2195"; color: #b3bac6; font-weight: 400; }
table.sortable th[aria-sort="ascending"]::after { content: " \2191"; color: var(--accent); }
table.sortable th[aria-sort="descending"]::after { content: " \2193"; color: var(--accent); }
a.loc { color: var(--accent); text-decoration: none; font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12.5px; white-space: nowrap; }
a.loc:hover { text-decoration: underline; }
.fuses { color: var(--muted); font-size: 12px; min-width: 220px; }
.share { color: var(--muted); font-size: 12px; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 20px; }
@media (max-width: 900px) { .grid2 { grid-template-columns: 1fr; } }
.src { display: flex; gap: 12px; padding: 2px 6px; border-radius: 4px; }
.src:target, .src.hl { background: #fff3c4; }
.src .ln { color: var(--muted); min-width: 56px; text-align: right; text-decoration: none; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
.src code { white-space: pre; overflow: hidden; text-overflow: ellipsis; }
#source-viewer { position: fixed; left: 0; right: 0; bottom: 0; background: #1f2430; color: #e8ebf1; padding: 10px 24px 14px; box-shadow: 0 -4px 16px rgba(0,0,0,.2); z-index: 10; }
#source-viewer .hd { display: flex; justify-content: space-between; color: #aab3c5; font-size: 12.5px; margin-bottom: 6px; }
#source-viewer pre { margin: 0; white-space: pre-wrap; word-break: break-all; max-height: 30vh; overflow: auto; font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
#source-viewer mark { background: #f6c343; color: #1f2430; border-radius: 2px; }
#source-viewer button { background: none; border: 1px solid #5b6475; color: #e8ebf1; border-radius: 4px; cursor: pointer; }
footer { color: var(--muted); font-size: 12px; margin-top: 24px; }
footer pre { white-space: pre-wrap; word-break: break-all; }
)css";

const char *const kReportErrorTrap = R"js(
window.__autopartErrors = [];
(function () {
  function note(text) {
    window.__autopartErrors.push(String(text));
    if (window.__autopartSelfCheck) window.__autopartSelfCheck();
  }
  window.addEventListener('error', function (e) { note(e.message || 'error'); });
  window.addEventListener('unhandledrejection', function (e) { note('unhandled rejection: ' + e.reason); });
  var original = console.error;
  console.error = function () {
    note(Array.prototype.map.call(arguments, String).join(' '));
    return original.apply(console, arguments);
  };
})();
)js";

const char *const kReportScript = R"js(
(function () {
  'use strict';
  var each = function (list, f) { Array.prototype.forEach.call(list, f); };

  // Tables of class "sortable": a click (or Enter) on a header sorts by
  // that column, again to reverse; numbers sort by data-v.
  each(document.querySelectorAll('table.sortable'), function (table) {
    var heads = table.tHead.rows[0].cells;
    each(heads, function (th, col) {
      th.tabIndex = 0;
      var sort = function () {
        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
        each(heads, function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var key = function (row) {
          var cell = row.cells[col];
          var v = cell ? cell.getAttribute('data-v') : null;
          return v !== null ? parseFloat(v) : (cell ? cell.textContent.toLowerCase() : '');
        };
        var rows = Array.prototype.slice.call(body.rows).map(function (r, i) { return [key(r), i, r]; });
        rows.sort(function (a, b) { return (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]) * (a[0] === b[0] ? 1 : dir); });
        rows.forEach(function (r) { body.appendChild(r[2]); });
      };
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sort(); }
      });
    });
  });

  // Links of class "loc" open their source line in the viewer at the
  // bottom (without JavaScript they jump to the line's anchor).
  var viewer = document.getElementById('source-viewer');
  var lit = null;
  document.addEventListener('click', function (e) {
    var a = e.target.closest ? e.target.closest('a.loc') : null;
    if (!a || !viewer) return;
    var line = document.getElementById('L' + a.getAttribute('data-line'));
    if (!line) return;
    e.preventDefault();
    var text = line.querySelector('code').textContent;
    var col = Math.max(1, parseInt(a.getAttribute('data-col'), 10) || 1) - 1;
    var pre = viewer.querySelector('pre');
    pre.textContent = '';
    pre.appendChild(document.createTextNode(text.slice(0, col)));
    var mark = document.createElement('mark');
    mark.textContent = text.slice(col, col + 1) || ' ';
    pre.appendChild(mark);
    pre.appendChild(document.createTextNode(text.slice(col + 1)));
    viewer.querySelector('.where').textContent = a.textContent;
    viewer.hidden = false;
    if (lit) lit.classList.remove('hl');
    lit = line;
    lit.classList.add('hl');
  });
  if (viewer) viewer.querySelector('button').addEventListener('click', function () { viewer.hidden = true; });

  // The page checks itself: what it drew against what the data says.
  window.__autopartSelfCheck = function () {
    var out = document.getElementById('self-check');
    var data = JSON.parse(document.getElementById('autopart-data').textContent);
    var expect = data.expect || {};
    var path = document.querySelector('#memory-plot path.mem-line');
    var points = path ? (path.getAttribute('d').match(/[ML]/g) || []).length : 0;
    var widths = [];
    each(document.querySelectorAll('#step-bars rect.seg'), function (r) { widths.push(parseFloat(r.getAttribute('width'))); });
    var argRows = document.querySelectorAll('#argument-table tbody tr').length;
    var searchRows = document.querySelectorAll('#search-table tbody tr').length;
    var result = {
      errors: window.__autopartErrors.slice(),
      memory_points: points, memory_expected: expect.memory_points || 0,
      step_bar_widths: widths,
      argument_rows: argRows, argument_expected: expect.arguments || 0,
      search_rows: searchRows, search_expected: expect.search || 0
    };
    result.ok = result.errors.length === 0 && points === result.memory_expected &&
        argRows === result.argument_expected && searchRows === result.search_expected &&
        (expect.step_bars ? widths.some(function (w) { return w > 0; }) : true);
    if (out) out.textContent = JSON.stringify(result);
    var summary = document.getElementById('self-check-summary');
    if (summary) summary.textContent = result.ok ? 'page self-check: ok' : 'page self-check: FAILED';
  };
  window.__autopartSelfCheck();
})();
)js";

}  // namespace autopart
