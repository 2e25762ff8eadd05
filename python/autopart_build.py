"""The PEP 517 build backend of `pip install .` (pyproject.toml).

It needs nothing but the standard library, so pip's isolated build
environment has nothing to download: the wheel is CMake's `_autopart` module
(built in build-pip/, as `make build` builds build/) and python/autopart/*.py,
zipped with the metadata files a wheel carries (PEP 427):

    autopart/__init__.py, autopart/_errors.py,
    autopart/_autopart.cpython-311-x86_64-linux-gnu.so,
    autopart-0.1.0.dist-info/{METADATA, WHEEL, RECORD}

Environment: AUTOPART_PIP_BUILD_DIR (default <repo>/build-pip),
AUTOPART_JOBS (default: the number of CPUs). `pip install -v .` shows
CMake's output.
"""
import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "python", "autopart")
NAME = "autopart"


def _version():
    with open(os.path.join(PACKAGE, "__init__.py")) as f:
        return re.search(r'^__version__ = "([^"]+)"', f.read(), re.M).group(1)


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
            "Summary: Automatic sharding plans for StableHLO programs (JAX exports)\n"
            "Requires-Python: >=3.9\n")


def _tag():
    v = sys.version_info
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"cp{v.major}{v.minor}-cp{v.major}{v.minor}-{platform}"


def _dist_info():
    return f"{NAME}-{_version()}.dist-info"


def _build_extension():
    """Configures and builds the `_autopart` target; the module's path."""
    build_dir = os.environ.get("AUTOPART_PIP_BUILD_DIR", os.path.join(ROOT, "build-pip"))
    env = dict(os.environ)
    # Objects match those of other build trees of the repository (build/)
    # in ccache when it sees paths relative to the repository.
    env.setdefault("CCACHE_BASEDIR", ROOT)
    configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DAUTOPART_PYTHON=ON",
                 f"-DPython3_EXECUTABLE={sys.executable}"]
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        configure += ["-G", "Ninja"]
    subprocess.run(configure, check=True, env=env, stdout=sys.stderr)
    jobs = os.environ.get("AUTOPART_JOBS", str(os.cpu_count() or 2))
    subprocess.run(["cmake", "--build", build_dir, "--target", "_autopart", "-j", jobs], check=True, env=env,
                   stdout=sys.stderr)
    built = os.path.join(build_dir, "python", "autopart")
    modules = [f for f in os.listdir(built) if f.startswith("_autopart") and f.endswith(".so")]
    if not modules:
        raise RuntimeError(f"CMake built no _autopart module in {built}")
    return os.path.join(built, modules[0])


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = os.path.join(metadata_directory, _dist_info())
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write(_metadata())
    return _dist_info()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    module = _build_extension()
    files = [(f"autopart/{name}", os.path.join(PACKAGE, name)) for name in sorted(os.listdir(PACKAGE))
             if name.endswith(".py")]
    files.append((f"autopart/{os.path.basename(module)}", module))
    return _write_wheel(wheel_directory, files, {})


def _write_wheel(wheel_directory, files, extra):
    """The wheel of `files` ((name in the wheel, path)) and `extra` (name: bytes)."""
    info = _dist_info()
    generated = dict(extra)
    generated[f"{info}/METADATA"] = _metadata().encode()
    generated[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: autopart_build\nRoot-Is-Purelib: false\n"
                                  f"Tag: {_tag()}\n").encode()
    wheel_name = f"{NAME}-{_version()}-{_tag()}.whl"
    record = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as whl:
        def add(arcname, data):
            whl.writestr(arcname, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{arcname},sha256={digest},{len(data)}")

        for arcname, path in files:
            with open(path, "rb") as f:
                add(arcname, f.read())
        for arcname, data in generated.items():
            add(arcname, data)
        record.append(f"{info}/RECORD,,")
        whl.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return wheel_name


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """`pip install -e .`: python/ on the path through a .pth file, the
    built module copied next to the sources (python/autopart/, ignored by
    git); rerun after changing C++."""
    module = _build_extension()
    shutil.copyfile(module, os.path.join(PACKAGE, os.path.basename(module)))
    return _write_wheel(wheel_directory, [], {"autopart_editable.pth": (os.path.join(ROOT, "python") + "\n").encode()})


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    return prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def build_sdist(sdist_directory, config_settings=None):
    """The tracked files (git ls-files) as NAME-VERSION.tar.gz."""
    base = f"{NAME}-{_version()}"
    listed = subprocess.run(["git", "-C", ROOT, "ls-files"], check=True, capture_output=True, text=True).stdout
    with tarfile.open(os.path.join(sdist_directory, base + ".tar.gz"), "w:gz") as tar:
        for rel in listed.splitlines():
            tar.add(os.path.join(ROOT, rel), arcname=f"{base}/{rel}", recursive=False)
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return base + ".tar.gz"
