"""The results-file writer the gpu/records scripts share."""
import json
import os

GPU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def put(key, name, record):
    """Sets `key` to `record` in gpu/`name`, keeping the file's own indentation
    (results_rust.json has 2, the others 1)."""
    path = os.path.join(GPU, name)
    text = open(path).read()
    d = json.loads(text)
    indent = 2 if text.startswith("{\n  \"") else 1
    d[key] = record
    with open(path, "w") as f:
        json.dump(d, f, indent=indent)
        f.write("\n")
