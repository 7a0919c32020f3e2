"""Check compare's JSON reports against doc/treedrift-compare.schema.json.

Usage: python3 validate_json.py SCHEMA REPORT... Exits 1, naming the report
and the first error, when one does not validate. jsonschema is required
(scripts/deps.sh installs python3-jsonschema): a check that could be skipped
would prove nothing."""
import json
import sys

import jsonschema

validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
for path in sys.argv[2:]:
    error = jsonschema.exceptions.best_match(validator.iter_errors(json.load(open(path))))
    if error:
        sys.exit(f"{path}: {error.message} at {list(error.absolute_path)}")
