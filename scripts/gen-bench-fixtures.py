#!/usr/bin/env python3
"""Large TsFiles for the benchmarks, written by the real C++ writer (PyPI tsfile 2.5.0).

  .venv/bin/python scripts/gen-bench-fixtures.py [--out bench-data] [--force] [--only NAME,...]

(`bash scripts/setup.sh --python` creates .venv; scripts/bench.sh runs this for you.)

Writes into bench-data/ (gitignored):

* big_1g.tsfile     tree model, 4 series on one device, ~1 GiB (33.5 M rows, PLAIN, uncompressed
                    random values so the size is real data, flushed every 2 M rows)
* small_1m.tsfile   the same 4 series, ~1 MiB (32,768 rows)
* series_100k.tsfile  tree model, 100,000 series (2,500 devices x 40 measurements, 1 row each),
                    realistic 30-60 byte paths, every 4th device with a non-ASCII name

and bench-data/manifest.json (name, size, series, generator version). A file is rebuilt only
when it is missing, its size differs from the manifest, or GEN_VERSION changed: reruns are
instant. Deterministic: fixed seeds, fixed data.

The path shapes are the ones scripts/bench.mjs and benches/bloom.rs use (`real_path`).
"""
import argparse
import json
import os
import sys
import time

GEN_VERSION = 1
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

MEAS_EN = ["temperature", "pressure", "flow_rate", "rotation_speed", "vibration_x", "vibration_y", "voltage", "current"]
MEAS_CN = ["温度", "压力", "流量", "转速", "振动X", "振动Y", "电压", "电流"]
MEAS_PER_DEVICE = 40


def device_name(d):
    """Device d of the realistic shape (every 4th one non-ASCII)."""
    if d % 4 == 3:
        return "root.华东.工厂%02d.风机_%05d" % (d % 16, d)
    return "root.plant_%02d.line_%d.turbine_%05d" % (d % 16, d % 5, d)


def measurement_name(d, m):
    if d % 4 == 3:
        return "%s_%d" % (MEAS_CN[m % 8], m)
    return "%s_%d" % (MEAS_EN[m % 8], m)


def real_path(i):
    """Series i: device i // 40, measurement i % 40. 30-60 UTF-8 bytes."""
    d, m = divmod(i, MEAS_PER_DEVICE)
    return device_name(d) + "." + measurement_name(d, m)


def writer_mod():
    try:
        import tsfile  # noqa: F401
    except ImportError:
        sys.exit("gen-bench-fixtures: `import tsfile` failed; run `bash scripts/setup.sh --python` "
                 "and use .venv/bin/python")
    import tsfile
    return tsfile


def write_rows_file(path, rows, batch):
    """One device, 4 non-aligned series (DOUBLE, INT64, DOUBLE, INT64), PLAIN + uncompressed,
    random values (incompressible), consecutive timestamps."""
    import numpy as np
    ts = writer_mod()
    from tsfile import (Compressor, DeviceSchema, Tablet, TimeseriesSchema, TSDataType,
                        TSEncoding, TsFileWriter)
    dev = "root.bench.power_plant_01.generator_01"
    ms = [("active_power", TSDataType.DOUBLE), ("energy_counter", TSDataType.INT64),
          ("reactive_power", TSDataType.DOUBLE), ("status_word", TSDataType.INT64)]
    w = TsFileWriter(path)
    ts.set_tsfile_config({"max_degree_of_index_node_": 256})
    w.register_device(DeviceSchema(dev, [TimeseriesSchema(m, t, TSEncoding.PLAIN, Compressor.UNCOMPRESSED)
                                         for m, t in ms]))
    rng = np.random.default_rng(20261130)
    done = 0
    while done < rows:
        n = min(batch, rows - done)
        t = Tablet([m for m, _ in ms], [d for _, d in ms], n)
        t.set_table_name(dev)
        t.column_name_list = [m for m, _ in ms]  # Tablet lower-cases names; keep them as given
        t.timestamp_list = list(range(1_700_000_000_000 + done, 1_700_000_000_000 + done + n))
        t.data_list = [
            (rng.random(n) * 1000.0).tolist(),
            rng.integers(0, 2**62, n).tolist(),
            (rng.random(n) * 100.0 - 50.0).tolist(),
            rng.integers(0, 2**62, n).tolist(),
        ]
        w.write_tablet(t)
        w.flush()
        done += n
    w.close()
    return len(ms)


def write_many_series_file(path, devices):
    ts = writer_mod()
    from tsfile import DeviceSchema, Tablet, TimeseriesSchema, TSDataType, TsFileWriter
    w = TsFileWriter(path)
    ts.set_tsfile_config({"max_degree_of_index_node_": 256})
    for d in range(devices):
        ms = [measurement_name(d, m) for m in range(MEAS_PER_DEVICE)]
        w.register_device(DeviceSchema(device_name(d), [TimeseriesSchema(m, TSDataType.DOUBLE) for m in ms]))
    for d in range(devices):
        ms = [measurement_name(d, m) for m in range(MEAS_PER_DEVICE)]
        t = Tablet(ms, [TSDataType.DOUBLE] * len(ms), 1)
        t.set_table_name(device_name(d))
        t.column_name_list = list(ms)
        t.timestamp_list = [1_700_000_000_000 + d]
        t.data_list = [[float(d * MEAS_PER_DEVICE + m)] for m in range(len(ms))]
        w.write_tablet(t)
    w.close()
    return devices * MEAS_PER_DEVICE


FIXTURES = {
    "big_1g": lambda p: write_rows_file(p, rows=4096 * 8192, batch=2 * 1024 * 1024),
    "small_1m": lambda p: write_rows_file(p, rows=32768, batch=32768),
    "series_100k": lambda p: write_many_series_file(p, devices=2500),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "bench-data"))
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    man_path = os.path.join(a.out, "manifest.json")
    try:
        with open(man_path, encoding="utf-8") as fh:
            manifest = json.load(fh)
    except (OSError, ValueError):
        manifest = {}
    if manifest.get("gen_version") != GEN_VERSION:
        manifest = {"gen_version": GEN_VERSION, "files": {}}
    only = [x for x in a.only.split(",") if x]
    for name, make in FIXTURES.items():
        if only and name not in only:
            continue
        path = os.path.join(a.out, name + ".tsfile")
        entry = manifest["files"].get(name)
        if (not a.force and entry and os.path.exists(path) and os.path.getsize(path) == entry["size"]):
            print("[gen-bench-fixtures] %s: cached (%d bytes)" % (name, entry["size"]), file=sys.stderr)
            continue
        tmp = path + ".tmp"
        if os.path.exists(tmp):
            os.remove(tmp)
        t0 = time.time()
        series = make(tmp)
        os.replace(tmp, path)
        size = os.path.getsize(path)
        manifest["files"][name] = {"file": name + ".tsfile", "size": size, "series": series,
                                   "writer": "PyPI tsfile 2.5.0 (C++)", "seconds": round(time.time() - t0, 1)}
        with open(man_path, "w", encoding="utf-8") as fh:
            json.dump(manifest, fh, indent=1)
            fh.write("\n")
        print("[gen-bench-fixtures] %s: %d bytes, %d series, %.1f s" % (name, size, series, time.time() - t0),
              file=sys.stderr)


if __name__ == "__main__":
    main()
