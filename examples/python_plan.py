"""Plan a JAX function with autopart and run it with the plan's shardings.

    python3 examples/python_plan.py      # needs JAX and 32 devices to run the step;
                                         # without them it plans and prints the specs
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec

import autopart


def loss(params, batch):
    h = jnp.maximum(batch["x"] @ params["w1"] + params["b1"], 0.0)
    return jnp.mean((h @ params["w2"] - batch["y"]) ** 2)


params = {"w1": jnp.zeros((1024, 4096)), "b1": jnp.zeros((4096,)), "w2": jnp.zeros((4096, 1024))}
batch = {"x": jnp.zeros((256, 1024)), "y": jnp.zeros((256, 1024))}

# JAX -> StableHLO text -> autopart.
text = jax.jit(loss).lower(params, batch).as_text()
plan = autopart.plan(text, mesh={"data": 8, "model": 4}, tactics=["dp", "megatron"], simulate=True)
print(f"simulated step {plan.report['step_seconds'] * 1e3:.3f} ms, "
      f"peak {plan.report['memory']['peak_bytes'] / 2**30:.2f} GiB per device")
for name, spec in zip(plan.arg_names, plan.in_specs):
    print(f"  {name}: PartitionSpec{spec}")

# The plan -> one NamedSharding per argument, in the order JAX flattens them
# (the order of plan.arg_names: params['b1'], params['w1'], ...).
specs = [PartitionSpec(*spec) for spec in plan.in_specs]
if len(jax.devices()) >= 32:
    mesh = jax.make_mesh(tuple(plan.mesh.values()), tuple(plan.mesh))
    flat, tree = jax.tree_util.tree_flatten((params, batch))
    shardings = jax.tree_util.tree_unflatten(tree, [NamedSharding(mesh, s) for s in specs])
    step = jax.jit(loss, in_shardings=shardings)
    print("loss", step(params, batch))
