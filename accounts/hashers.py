"""Password hashing: Argon2id at OWASP's minimum cost (issue 15).

Django's own Argon2 hasher asks for 100 MiB and 8 lanes per hash: on a 2-core server a crowd
signing in at once would need gigabytes. OWASP's password storage cheat sheet gives as its
minimum for Argon2id 19 MiB of memory, 2 passes and 1 lane; that costs a few tens of
milliseconds of CPU here (bench/hashing.py, docs/performance.md), against about two seconds
for Django's PBKDF2 default.

The algorithm name stays "argon2", so Django's verifier reads every argon2 hash, and a hash
made with other parameters (or by PBKDF2) is rewritten with these at the next sign-in
(`must_update`, Django's own upgrade path).
"""

from django.contrib.auth.hashers import Argon2PasswordHasher


class OwaspArgon2PasswordHasher(Argon2PasswordHasher):
    time_cost = 2  # passes
    memory_cost = 19 * 1024  # KiB: 19 MiB
    parallelism = 1  # lanes
