"""Sign-in cost (issue 15): CPU time and peak memory of checking one password with each hasher
of settings.PASSWORD_HASHERS, and with Django's own defaults for comparison.

    .venv/bin/python bench/hashing.py            # options: --repeat 7

A sign-in checks the password once (and, for a hash of an older hasher, hashes it once more
with the first hasher). Each hasher is measured in a fresh process of its own: CPU time is
the process's (`time.process_time`, so other work on the shared machine does not count), and
memory is the growth of the process's peak resident size across the checks (Argon2 allocates
its whole memory cost for each hash and frees it after).

Budget: under 100 ms of CPU and 64 MiB per sign-in with the first hasher.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HASHERS = [
    ("accounts.hashers.OwaspArgon2PasswordHasher", "Argon2id, OWASP minimum (production)"),
    ("django.contrib.auth.hashers.PBKDF2PasswordHasher", "PBKDF2, Django's default (before)"),
    ("django.contrib.auth.hashers.Argon2PasswordHasher", "Argon2id, Django's parameters"),
]


def measure(path: str, repeat: int) -> dict:
    """In this (fresh) process: CPU and peak memory of `repeat` password checks."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.utils.module_loading import import_string

    hasher = import_string(path)()
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    encoded = hasher.encode("correct horse battery staple", hasher.salt())
    times = []
    for _ in range(repeat):
        start = time.process_time()
        assert hasher.verify("correct horse battery staple", encoded)
        times.append(time.process_time() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "median_ms": statistics.median(times) * 1000,
        "max_ms": max(times) * 1000,
        "peak_growth_mib": (peak - baseline) / 1024,
        "encoded_prefix": encoded.rsplit("$", 2)[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.repeat)))
        return
    print(f"{'hasher':<40} {'CPU median':>11} {'CPU max':>9} {'memory':>9}  stored as")
    for path, label in HASHERS:
        # A fresh process each, so that one hasher's peak memory is not another's baseline.
        out = subprocess.run(
            [sys.executable, __file__, "--one", path, "--repeat", str(args.repeat)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        row = json.loads(out.strip().splitlines()[-1])
        print(
            f"{label:<40} {row['median_ms']:>8.1f} ms {row['max_ms']:>6.1f} ms"
            f" {row['peak_growth_mib']:>5.1f} MiB  {row['encoded_prefix']}"
        )


if __name__ == "__main__":
    main()
