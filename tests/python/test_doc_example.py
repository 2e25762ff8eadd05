"""The JAX round trip of docs/python.md, whose code block is
examples/python_plan.py verbatim: the test checks the two agree and runs the
example with a stand-in for JAX (not installable here) whose
`jax.jit(f).lower(*args).as_text()` gives examples/mlp_forward.mlir, the
StableHLO of the example's `loss`. It checks the PartitionSpecs the example
builds are the plan's, one NamedSharding per argument. Run as test_api.py is."""
import contextlib
import io
import os
import re
import runpy
import sys
import types
import unittest

import autopart
from test_api import EXAMPLES, MLP, ROOT, read

EXAMPLE = os.path.join(EXAMPLES, "python_plan.py")


class PartitionSpec(tuple):
    def __new__(cls, *entries):
        return super().__new__(cls, entries)


class NamedSharding:
    def __init__(self, mesh, spec):
        self.mesh, self.spec = mesh, spec


def fake_jax(record):
    """jax, jax.numpy and jax.sharding as far as the example uses them."""
    jax = types.ModuleType("jax")
    jnp = types.ModuleType("jax.numpy")
    sharding = types.ModuleType("jax.sharding")
    tree_util = types.ModuleType("jax.tree_util")

    class Lowered:
        def as_text(self):
            return read(MLP)

    class Jitted:
        def __init__(self, f, in_shardings=None):
            self.f, self.in_shardings = f, in_shardings
            record["jit"] = self

        def lower(self, *args):
            return Lowered()

        def __call__(self, *args):
            return 0.0

    def flatten(tree):
        if isinstance(tree, dict):
            return [leaf for k in sorted(tree) for leaf in flatten(tree[k])]
        if isinstance(tree, (tuple, list)):
            return [leaf for t in tree for leaf in flatten(t)]
        return [tree]

    jax.jit = lambda f, **kw: Jitted(f, **kw)
    jax.devices = lambda: list(range(32))
    jax.make_mesh = lambda shape, names: record.setdefault("mesh", (shape, names))
    tree_util.tree_flatten = lambda tree: (flatten(tree), "treedef")
    tree_util.tree_unflatten = lambda treedef, leaves: list(leaves)
    jax.tree_util = tree_util
    jnp.zeros = lambda shape: ("zeros", shape)
    jnp.maximum = jnp.mean = None
    sharding.NamedSharding = NamedSharding
    sharding.PartitionSpec = PartitionSpec
    jax.numpy, jax.sharding = jnp, sharding
    return {"jax": jax, "jax.numpy": jnp, "jax.sharding": sharding, "jax.tree_util": tree_util}


class DocExampleTest(unittest.TestCase):
    def test_doc_shows_the_example(self):
        doc = read(os.path.join(ROOT, "docs", "python.md"))
        blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
        self.assertIn(read(EXAMPLE), blocks, "docs/python.md must show examples/python_plan.py verbatim")

    def test_runs_to_the_shardings(self):
        record = {}
        saved = {name: sys.modules.get(name) for name in ("jax", "jax.numpy", "jax.sharding", "jax.tree_util")}
        sys.modules.update(fake_jax(record))
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                env = runpy.run_path(EXAMPLE, run_name="__main__")
        finally:
            for name, module in saved.items():
                if module is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = module
        plan = autopart.plan(read(MLP), mesh={"data": 8, "model": 4}, tactics=["dp", "megatron"])
        self.assertEqual(env["plan"].in_specs, plan.in_specs)
        self.assertEqual(env["specs"], [PartitionSpec(*s) for s in plan.in_specs])
        self.assertEqual(env["specs"][0], PartitionSpec(None, "model"))
        self.assertEqual(record["mesh"], ((8, 4), ("data", "model")))
        shardings = record["jit"].in_shardings
        self.assertEqual(len(shardings), 5)
        self.assertTrue(all(isinstance(s, NamedSharding) for s in shardings))
        self.assertEqual([s.spec for s in shardings], env["specs"])
        self.assertIn("params['w1']: PartitionSpec(None, 'model')", out.getvalue())
        self.assertIn("loss 0.0", out.getvalue())


if __name__ == "__main__":
    unittest.main()
