"""autopart: automatic sharding plans for StableHLO programs, from Python.

The functions take the StableHLO text JAX prints
(``jax.jit(f).lower(*args).as_text()``) and return what the ``autopart``
CLI reports with ``--json``, as dicts; ``plan`` and ``search`` also return the
annotated program and one JAX ``PartitionSpec`` tuple per argument::

    import autopart
    text = open("examples/mlp_forward.mlir").read()
    autopart.analyze(text)["names"]                       # 4
    p = autopart.plan(text, mesh={"data": 8, "model": 4}, tactics=["dp", "megatron"])
    p.in_specs                                            # (("data", None), (None, "model"), ...)

Errors raise :class:`autopart.Error` (a ``ValueError``) with the CLI's
``file:line:col: error: ...`` message. See docs/python.md.
"""

__version__ = "0.1.0"

import json as _json
import warnings as _warnings

from . import _autopart
from ._errors import Error, Warning

__all__ = ["analyze", "simulate", "report", "plan", "search", "Plan", "SearchResult", "Error", "Warning"]


def _mesh_spec(mesh):
    """{"data": 8, "model": 4} / [("data", 8), ...] / "data=8,model=4" -> "data=8,model=4"."""
    if mesh is None:
        return ""
    if isinstance(mesh, str):
        return mesh
    items = mesh.items() if isinstance(mesh, dict) else mesh
    return ",".join(f"{name}={int(size)}" for name, size in items)


def _report(raw):
    """The extension's answer: warn what it noted, parse the JSON report."""
    for d in raw.get("diagnostics", ()):
        _warnings.warn(d["text"], Warning, stacklevel=3)
    return _json.loads(raw["report"])


def analyze(text, mesh=None, file_name="<string>", top=10, conservative=False):
    """The named-dimension analysis of a program, as ``autopart analyze --json``.

    ``mesh`` (a dict such as ``{"data": 8, "model": 4}`` or the CLI's
    ``"data=8,model=4"``) only sets how many axes the decision space counts;
    without it the program's ``sdy.mesh``, else two axes. ``file_name`` is
    where errors point and the report's ``"file"``.

    Returns a dict: ``ops``, ``tensor_dims``, ``shardable_dims``, ``names``,
    ``conflicts``, ``log10_space_before`` / ``_after``, ``top_names`` (the
    ``top`` names covering the most bytes), ``conflict_list``...

    >>> autopart.analyze(open("examples/mlp_forward.mlir").read())["names"]
    4
    """
    return _report(_autopart.analyze(text, file_name, _mesh_spec(mesh), int(top), bool(conservative)))


def simulate(text, mesh=None, device="h100-80gb", propagate=True, file_name="<string>", top=10, ablate=(),
             sync_collectives=False, overlap=0.0, unknown_trip_count=1.0, peak_tflops=0.0, hbm_gbps=0.0,
             link_gbps=0.0, input_shardings=None):
    """The simulated step of an annotated program, as ``autopart simulate --json``.

    ``text`` carries its shardings (``sdy.mesh`` and ``sdy.sharding``, as
    :func:`plan` writes them); ``mesh`` overrides the program's mesh.
    ``device`` is a preset (``h100-80gb``, ``a100-80gb``, ``tpu-v4``,
    ``tpu-v5e``, ``tpu-v5p``) or a device JSON file. With ``propagate`` (the
    default) Shardy's propagation completes the input's shardings first, as
    XLA would; ``False`` prices them as written (``--no-propagate``).
    ``input_shardings`` (``"keep"``, ``"map"``, ``"drop"``) says what happens
    to the program's shardings when ``mesh`` replaces its mesh and they use
    axes the new mesh lacks (``--input-shardings``; by default an error).
    ``ablate`` switches parts of the cost model off (``"fusion"``,
    ``"efficiency"``, ``"overlap"``, ``"combining"``, ``"all"``); the rest
    are the CLI's flags of the same names (docs/cost-model.md).

    Returns a dict: ``step_seconds``, ``compute_seconds``, ``peak_bytes``,
    the costliest kernels and collectives, what is live at the peak...
    """
    if isinstance(ablate, str):
        ablate = [a for a in ablate.split(",") if a]
    return _report(_autopart.simulate(text, file_name, _mesh_spec(mesh), device, int(top), list(ablate),
                                      float(overlap), bool(sync_collectives), float(unknown_trip_count),
                                      float(peak_tflops), float(hbm_gbps), float(link_gbps), bool(propagate), input_shardings or ""))


def report(text, mesh=None, device="h100-80gb", search=None, title=None, propagate=True, file_name="plan.mlir",
           top=15, input_shardings=None):
    """The plan report page of an annotated program, as ``autopart report``
    writes it: one self-contained HTML document (str) with the mesh, the step
    time split into compute and communication, memory over the step, the
    costliest kernels and collectives linked to their source lines and every
    argument's sharding (docs/report.md).

    ``text`` is what :func:`plan` or :func:`search` returned (``.text``);
    ``search`` a :class:`SearchResult` (or its ``.report`` dict) adds the
    methods side by side. Write it to a file and open it in a browser::

        page = autopart.report(result.text, device="h100-80gb", search=result)
        open("plan.html", "w").write(page)
    """
    if isinstance(search, SearchResult):
        search = search.report
    return _autopart.report(text, file_name, _mesh_spec(mesh), device, int(top),
                            _json.dumps(search) if search is not None else "", title or "", bool(propagate), input_shardings or "")


def _spec(entry):
    """One JSON PartitionSpec: [null, "data", ["data", "model"]] -> (None, "data", ("data", "model"))."""
    if entry is None:
        return None
    return tuple(tuple(e) if isinstance(e, list) else e for e in entry)


class _Planned:
    """What plan and search share: the annotated program and its specs."""

    def __init__(self, raw):
        self.text = raw["text"]
        specs = _json.loads(raw["specs"]) if raw.get("specs") else None
        specs = specs or {"mesh": {}, "in_specs": [], "out_specs": []}
        self.mesh = dict(specs["mesh"])
        self.arg_names = tuple(s["name"] for s in specs["in_specs"])
        self.in_specs = tuple(_spec(s["spec"]) for s in specs["in_specs"])
        self.result_names = tuple(s["name"] for s in specs["out_specs"])
        self.out_specs = tuple(_spec(s["spec"]) for s in specs["out_specs"])
        self.specs = specs
        self.notes = list(raw.get("notes", ()))


class Plan(_Planned):
    """A tactic schedule applied to a program (:func:`plan`).

    Attributes:
        text: the program annotated with ``sdy.mesh`` and ``sdy.sharding``
            (the input's text, edited), as ``autopart plan`` writes it.
        in_specs: one JAX PartitionSpec per argument, as a tuple with one
            entry per dimension: ``None`` (not sharded), ``"axis"`` or a
            tuple of axes, e.g. ``(("data", "model"), None)``; the entry
            for an argument is ``None`` when its sharding has no
            PartitionSpec (sub-axes). ``jax.sharding.PartitionSpec(*spec)``
            makes the JAX object.
        out_specs: the same per result (``None``: replicated).
        arg_names / result_names: ``jax.arg_info`` / ``jax.result_info``
            names (``params['w1']``) or ``%argN``.
        mesh: ``{"data": 8, "model": 4}``, axes major to minor.
        specs: the JSON ``autopart plan --specs`` writes, as a dict.
        tactics: what each tactic sharded (the report ``plan`` prints).
        report: the simulation of the plan (``autopart simulate --json`` of
            ``text``) when ``simulate`` was on, else ``tactics``.
        notes: lines the CLI prints on stderr (levers applied, ops pinned).
    """

    def __init__(self, raw):
        super().__init__(raw)
        self.tactics = _json.loads(raw["tactics"])
        simulation = _json.loads(raw["report"])
        self.simulation = simulation
        self.report = simulation if simulation is not None else self.tactics

    def __repr__(self):
        return f"Plan(mesh={self.mesh}, in_specs={self.in_specs})"


class SearchResult(_Planned):
    """The automatic search's answer (:func:`search`).

    Attributes as :class:`Plan` (``text``, ``in_specs``, ``out_specs``,
    ``arg_names``, ``mesh``, ``specs``, ``notes``) for the first method's
    plan, and ``report``: the dict ``autopart search --json`` prints (every
    method's step time, peak memory, fits, search time; levers tried).
    """

    def __init__(self, raw):
        super().__init__(raw)
        self.report = _json.loads(raw["report"])

    @property
    def best(self):
        """The first method's row of ``report["results"]``."""
        return self.report["results"][0]

    def __repr__(self):
        best = self.best
        return (f"SearchResult(method={best['method']!r}, step_seconds={best.get('step_seconds')}, "
                f"in_specs={self.in_specs})")


def _warn(raw):
    for d in raw.get("diagnostics", ()):
        _warnings.warn(d["text"], Warning, stacklevel=3)


def _tactics_spec(tactics):
    if isinstance(tactics, str):
        return tactics
    return ",".join(tactics)


def plan(text, mesh={"data": 8, "model": 4}, tactics=("dp", "auto"), device="h100-80gb", seed=0,  # noqa: B006
         time_budget=30.0, iterations=0, propagate=True, simulate=True, gspmd=False, reprint=False,
         function=None, file_name="<string>", progress=None, input_shardings=None):
    """Applies a tactic schedule and returns the annotated program (:class:`Plan`).

    ``tactics`` is a list (or the CLI's comma-separated string): named
    tactics ``dp``, ``fsdp``, ``megatron``, ``zero1`` (``"dp:data"`` picks
    the axis), ``auto`` (the search, from what earlier tactics left, on
    ``device`` with ``seed``, ``time_budget`` seconds and ``iterations``
    MCTS iterations: the same seed and iterations give the same plan), memory
    levers ``remat:full`` / ``microbatch:8``, or a YAML/JSON tactics file's
    path. ``mesh`` is a dict (``None``: the program's own ``sdy.mesh``).
    ``simulate`` prices the plan (``Plan.report``, as ``autopart plan
    --report``). ``input_shardings`` (``"keep"``, ``"map"``, ``"drop"``):
    the program's own shardings on another mesh, as ``--input-shardings``
    (see :func:`simulate`). ``progress`` is called as the auto tactic searches (see
    :func:`search`). The GIL is released while planning.

    >>> p = autopart.plan(text, mesh={"data": 2}, tactics=["dp"])
    >>> p.in_specs[3]
    ('data', None)
    """
    return _plan_result(_autopart.plan(text, file_name, _mesh_spec(mesh), _tactics_spec(tactics), device,
                                       int(seed), float(time_budget), int(iterations), bool(propagate), input_shardings or "",
                                       bool(gspmd), bool(reprint), bool(simulate), function or "", progress))


def _plan_result(raw):
    _warn(raw)
    return Plan(raw)


def search(text, mesh=None, device="h100-80gb", method="mcts", time_budget=30.0, iterations=0, seed=0,
           levers="auto", progress=None, threads=2, exploration=0.7, rollout="random", anneal_steps=50000,
           refine_starts=4, portfolio=True, propagate=True, reprint=False, function=None,
           file_name="<string>", input_shardings=None):
    """Finds a sharding plan automatically (:class:`SearchResult`), as ``autopart search``.

    ``method``: ``mcts`` (default), ``exhaustive``, ``greedy``, ``random``,
    ``ilp``, an expert schedule (``dp``, ``dp+megatron``...), the groups
    ``expert``, ``baseline``, ``all``, or a list of them; the first one's
    plan is annotated. Each method gets ``time_budget`` seconds;
    ``iterations`` caps MCTS iterations (with ``seed``, a run short of the
    time budget is repeatable). ``levers``: ``"auto"`` tries recomputation
    and microbatching when no plan fits, ``"none"``, or a list such as
    ``["remat:full", "microbatch:8"]``.

    The GIL is released while it searches, so other Python threads run.
    ``progress``, if given, is called about every 250 ms from the search's
    reporter thread (holding the GIL) with a dict: ``iterations``,
    ``best_step_seconds``, ``best_peak_bytes``, ``best_fits``, ``seconds``.
    An exception it raises stops the calls and is raised when the search
    returns.
    """
    if not isinstance(method, str):
        method = ",".join(method)
    if not isinstance(levers, str):
        levers = ",".join(levers)
    raw = _autopart.search(text, file_name, _mesh_spec(mesh), device, method, float(time_budget), int(iterations),
                           int(seed), int(threads), levers, float(exploration), rollout, int(anneal_steps),
                           int(refine_starts), bool(portfolio), bool(propagate), input_shardings or "", bool(reprint), function or "",
                           progress)
    _warn(raw)
    return SearchResult(raw)
