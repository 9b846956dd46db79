#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Checks a JSON document against one of iospd's schemas: validate_document.py
# <schema folder> <schema file name> <document>. Every schema of the folder
# is registered under its $id, so "iospd-results.schema.json#/$defs/..."
# references between them resolve. Prints "ok" or the first errors; exit 0/1.
import json
import pathlib
import sys

import jsonschema
from referencing import Registry, Resource

folder, name, doc_path = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3]
registry = Registry()
for f in sorted(folder.glob('*.schema.json')):
    s = json.loads(f.read_text(encoding='utf-8'))
    registry = registry.with_resource(s.get('$id', f.name), Resource.from_contents(s))
schema = json.loads((folder / name).read_text(encoding='utf-8'))
doc = json.loads(pathlib.Path(doc_path).read_text(encoding='utf-8'))
cls = jsonschema.validators.validator_for(schema)
errors = sorted(cls(schema, registry=registry).iter_errors(doc), key=lambda e: list(e.path))
for e in errors[:5]:
    print('/'.join(str(p) for p in e.path) + ': ' + e.message)
print('ok' if not errors else f'{len(errors)} errors')
sys.exit(1 if errors else 0)
