"""pip install . -- builds autopart._autopart with this repository's CMake
(the same build as `make build`, in build-pip/) and installs the `autopart`
package (python/autopart). Works offline: there is no pyproject.toml, so pip
builds with the setuptools and wheel already installed (Debian's
python3-setuptools and python3-wheel; scripts/install-deps.sh installs them)
instead of downloading them into an isolated environment. docs/python.md.
"""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Configures and builds the `_autopart` target, then copies the module."""

    def build_extension(self, ext):
        build_dir = os.environ.get("AUTOPART_PIP_BUILD_DIR", os.path.join(ROOT, "build-pip"))
        env = dict(os.environ)
        # The same sources compile to the same objects in every build tree of
        # the repository when ccache sees paths relative to it.
        env.setdefault("CCACHE_BASEDIR", ROOT)
        configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DAUTOPART_PYTHON=ON",
                     f"-DPython3_EXECUTABLE={sys.executable}"]
        if shutil.which("ninja") and not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            configure += ["-G", "Ninja"]
        subprocess.run(configure, check=True, env=env)
        jobs = os.environ.get("AUTOPART_JOBS", str(os.cpu_count() or 2))
        subprocess.run(["cmake", "--build", build_dir, "--target", "_autopart", "-j", jobs], check=True, env=env)
        package = os.path.join(build_dir, "python", "autopart")
        built = [f for f in os.listdir(package) if f.startswith("_autopart") and f.endswith(".so")]
        if not built:
            raise RuntimeError(f"no _autopart module in {package}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(package, built[0]), target)


setup(
    name="autopart",
    version="0.1.0",
    description="Automatic sharding plans for StableHLO programs (JAX exports)",
    long_description=open(os.path.join(ROOT, "docs", "python.md")).read() if os.path.exists(
        os.path.join(ROOT, "docs", "python.md")) else "",
    long_description_content_type="text/markdown",
    package_dir={"": "python"},
    packages=["autopart"],
    ext_modules=[CMakeExtension("autopart._autopart")],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
    zip_safe=False,
)
