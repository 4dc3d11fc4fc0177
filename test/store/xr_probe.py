"""Opens a dataset with xarray.open_zarr and prints, as JSON, what a scientist would see.

Usage: xr_probe.py DATASET_DIR QUERIES_JSON
QUERIES_JSON is a list of [variable, hour, row, col] (hour ignored for static arrays); values come back decoded
(CF scale/offset applied, fill -> null). Exit code 3 when xarray or zarr is not importable.
"""
import json
import math
import sys

try:
    import numpy as np
    import xarray as xr
except ImportError as err:  # reported, not raised: the test decides whether to skip
    print(json.dumps({"missing": str(err)}))
    sys.exit(3)


def plain(value):
    value = value.item() if hasattr(value, "item") else value
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def main():
    path, queries = sys.argv[1], json.loads(sys.argv[2])
    ds = xr.open_zarr(path)
    values = []
    for name, hour, row, col in queries:
        var = ds[name]
        sel = var.isel(y=row, x=col) if "time" not in var.dims else var.isel(time=hour, y=row, x=col)
        values.append(plain(sel.values))
    out = {
        "dims": {k: int(v) for k, v in ds.sizes.items()},
        "data_vars": {k: {"dims": list(v.dims), "dtype": str(v.dtype)} for k, v in ds.data_vars.items()},
        "time": [str(np.datetime_as_string(t, unit="h")) for t in ds["time"].values[[0, 1, -1]]],
        "x": [float(v) for v in ds["x"].values],
        "y": [float(v) for v in ds["y"].values],
        "attrs": {k: plain(v) if not isinstance(v, (list, tuple)) else list(v) for k, v in ds.attrs.items()},
        "grid_mapping": {k: ds[k].attrs.get("grid_mapping") for k in ds.data_vars if k != "crs"},
        "crs_epsg": ds["crs"].attrs.get("epsg_code"),
        "values": values,
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
