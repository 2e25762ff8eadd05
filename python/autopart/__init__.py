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

import json as _json
import warnings as _warnings

from . import _autopart
from ._errors import Error, Warning

__all__ = ["analyze", "Error", "Warning"]


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
