"""The results-file writer the gpu/records scripts share."""
import datetime
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


def r4(x):
    return round(x, 4)


def spread(xs):
    """[min, max] of per-round figures, to 4 places."""
    return [round(min(xs), 4), round(max(xs), 4)]


def device(path):
    """(device string, date, UTC time) from a device call's device.txt at `path`: `date -u`,
    then nvidia-smi's name, driver, max SM clock, power limit."""
    with open(path) as f:
        when, smi = f.read().splitlines()[:2]
    t = datetime.datetime.strptime(" ".join(when.split()), "%a %b %d %I:%M:%S %p UTC %Y")
    name, driver, clock, power = [s.strip() for s in smi.split(",")]
    watts = power.split()[0]
    watts = watts[:-3] if watts.endswith(".00") else watts
    return (f"{name} (driver {driver}, {clock} max SM clock, {watts} W)",
            t.strftime("%Y-%m-%d"), t.strftime("%H:%M:%S UTC"))
