#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validates iospd --pts documents against schema/iospd-pts.schema.json
(which takes "system" and the window from iospd-results.schema.json).

Usage: validate_pts.py SCHEMA_DIR FILE...
Exit 0 when every file is valid, 1 otherwise, 77 when python3-jsonschema
(with referencing) is missing.
"""
import json
import os
import sys

try:
    import jsonschema
    from referencing import Registry, Resource
except ImportError:
    print("skipped: python3-jsonschema (4.18 or later) is not installed")
    sys.exit(77)


def strict(name):
    raise ValueError("not JSON: %s" % name)


def main():
    d = sys.argv[1]
    pts = json.load(open(os.path.join(d, "iospd-pts.schema.json")))
    res = json.load(open(os.path.join(d, "iospd-results.schema.json")))
    reg = Registry().with_resources([
        (res["$id"], Resource.from_contents(res)),
        (pts["$id"], Resource.from_contents(pts)),
    ])
    v = jsonschema.Draft202012Validator(pts, registry=reg)
    bad = 0
    for f in sys.argv[2:]:
        try:
            doc = json.load(open(f), parse_constant=strict)
        except ValueError as e:
            print("%s: %s" % (f, e))
            bad += 1
            continue
        errs = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
        for e in errs[:20]:
            print("%s: %s: %s" % (f, "/".join(map(str, e.path)), e.message))
        if errs:
            bad += 1
        else:
            print("%s: valid" % f)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
