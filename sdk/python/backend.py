"""A PEP 517 build backend in the standard library only, so that `pip install rankrelay-<version>.tar.gz`
works offline (no setuptools, no index). It builds a pure-Python wheel of the `rankrelay` package with the
metadata from PKG-INFO, and can re-create the source archive."""

import base64
import hashlib
import io
import os
import tarfile
import zipfile
from email.parser import Parser

_ROOT = os.path.dirname(os.path.abspath(__file__))
_PACKAGE = "rankrelay"
# Every file of the source tree, for build_sdist (the package directory is walked).
_TOP_FILES = ("PKG-INFO", "pyproject.toml", "backend.py", "README.md", "LICENSE")
# A fixed time for archive members (1980-01-01, the earliest a zip can store), so builds are reproducible.
_EPOCH = (1980, 1, 1, 0, 0, 0)


def _metadata():
    with open(os.path.join(_ROOT, "PKG-INFO"), encoding="utf-8") as handle:
        text = handle.read()
    headers = Parser().parsestr(text)
    return headers["Name"], headers["Version"], text


def _dist_name(name):
    return name.replace("-", "_")


def _package_files():
    """(archive path, absolute path) of every file of the package, sorted."""
    found = []
    base = os.path.join(_ROOT, _PACKAGE)
    for directory, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for filename in sorted(filenames):
            if filename.endswith((".pyc", ".pyo")):
                continue
            absolute = os.path.join(directory, filename)
            found.append((os.path.relpath(absolute, _ROOT).replace(os.sep, "/"), absolute))
    return found


def _record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"sha256={digest}"


def _wheel_text(name):
    return "Wheel-Version: 1.0\nGenerator: rankrelay-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _dist_info_files(name, version, metadata):
    return {"METADATA": metadata.encode("utf-8"), "WHEEL": _wheel_text(name).encode("utf-8"), "top_level.txt": (_PACKAGE + "\n").encode("utf-8")}


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    name, version, metadata = _metadata()
    dist_info = f"{_dist_name(name)}-{version}.dist-info"
    target = os.path.join(metadata_directory, dist_info)
    os.makedirs(target, exist_ok=True)
    for filename, data in _dist_info_files(name, version, metadata).items():
        with open(os.path.join(target, filename), "wb") as handle:
            handle.write(data)
    return dist_info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name, version, metadata = _metadata()
    dist_info = f"{_dist_name(name)}-{version}.dist-info"
    filename = f"{_dist_name(name)}-{version}-py3-none-any.whl"
    records = []

    def add(archive, path, data):
        info = zipfile.ZipInfo(path, date_time=_EPOCH)
        info.external_attr = 0o644 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, data)
        records.append(f"{path},{_record_hash(data)},{len(data)}")

    os.makedirs(wheel_directory, exist_ok=True)
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w") as archive:
        for path, absolute in _package_files():
            with open(absolute, "rb") as handle:
                add(archive, path, handle.read())
        for info_name, data in _dist_info_files(name, version, metadata).items():
            add(archive, f"{dist_info}/{info_name}", data)
        record_path = f"{dist_info}/RECORD"
        records.append(f"{record_path},,")
        info = zipfile.ZipInfo(record_path, date_time=_EPOCH)
        info.external_attr = 0o644 << 16
        archive.writestr(info, ("\n".join(records) + "\n").encode("utf-8"))
    return filename


def build_sdist(sdist_directory, config_settings=None):
    name, version, _ = _metadata()
    stem = f"{_dist_name(name)}-{version}"
    filename = f"{stem}.tar.gz"
    os.makedirs(sdist_directory, exist_ok=True)
    files = [(top, os.path.join(_ROOT, top)) for top in _TOP_FILES if os.path.exists(os.path.join(_ROOT, top))]
    files += _package_files()
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.USTAR_FORMAT) as archive:
        for path, absolute in files:
            with open(absolute, "rb") as handle:
                data = handle.read()
            info = tarfile.TarInfo(f"{stem}/{path}")
            info.size = len(data)
            info.mode = 0o644
            info.mtime = 315532800
            archive.addfile(info, io.BytesIO(data))
    return filename
