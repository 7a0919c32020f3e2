#!/usr/bin/env python3
"""Validate CycloneDX JSON files against the schema in SCHEMA_DIR, offline.

usage: cyclonedx_validate.py SCHEMA_DIR FILE...
Every schema file in SCHEMA_DIR is put in the resolver's store under its $id,
so that bom-1.5.schema.json's references (spdx.schema.json, jsf-0.82.schema.json)
never leave the machine. Exit 0 when all files are valid, 1 otherwise."""
import json
import os
import sys
import warnings

import jsonschema


def main():
    schema_dir, files = sys.argv[1], sys.argv[2:]
    store = {}
    for name in os.listdir(schema_dir):
        if name.endswith(".schema.json"):
            with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
                s = json.load(f)
            store[s["$id"]] = s
    bom = store["http://cyclonedx.org/schema/bom-1.5.schema.json"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        resolver = jsonschema.RefResolver.from_schema(bom, store=store)
    validator = jsonschema.Draft7Validator(bom, resolver=resolver)
    bad = 0
    for path in files:
        with open(path, "rb") as f:
            doc = json.loads(f.read().decode("utf-8"))
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:10]:
            print("%s: %s at %s" % (path, e.message, "/".join(map(str, e.path))), file=sys.stderr)
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
