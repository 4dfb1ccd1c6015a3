# SPDX-License-Identifier: GPL-2.0
"""The guest's machine-readable lines: '@kind key=value ...' in a log."""


def records(path):
    """Yields (kind, {key: value}) for every '@kind' line of path."""
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip().replace("\r", "")
            if not line.startswith("@"):
                continue
            kind, *fields = line.split()
            yield kind[1:], dict(x.split("=", 1) for x in fields if "=" in x)
