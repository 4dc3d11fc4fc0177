"""The statistics of one radius query, the way a scientist would compute them with xarray (the query benchmark's
comparison): open the store with xarray.open_zarr, select the outdoor cells whose centres lie within the radius, and
compute the air, wind and thermal statistics eagerly with numpy over every cell-hour.

Usage: python3 xarray_radius.py STORE X Y RADIUS_M   (X, Y: EPSG:31370 metres). Prints JSON: the wall time in
milliseconds and a few headline figures (so the work cannot be skipped).
"""
import json
import sys
import time

import numpy as np
import pandas as pd
import xarray as xr

BELAQI_BOUNDS = {
    "no2": [10, 15, 20, 30, 40, 45, 50, 60, 75],
    "pm25": [3.5, 7.5, 10, 15, 20, 35, 50, 60, 75],
    "pm10": [10, 20, 35, 45, 60, 80, 95, 110, 140],
}


def belaqi_class(values, pollutant):
    """BelAQI class 1-10 of every value (0 where there is no value)."""
    cls = np.digitize(values, BELAQI_BOUNDS[pollutant], right=True) + 1
    valid = (values > 0) if pollutant == "no2" else (values >= 0)
    return np.where(np.isfinite(values) & valid, cls, 0)


def main(store, x, y, radius):
    started = time.perf_counter()
    ds = xr.open_zarr(store)
    box = ds.sel(x=slice(x - radius, x + radius), y=slice(y + radius, y - radius))
    inside = ((box.x - x) ** 2 + (box.y - y) ** 2 <= radius ** 2) & (box.outdoor == 1)
    cells = box.where(inside).stack(cell=("y", "x"))
    cells = cells.isel(cell=np.flatnonzero(inside.stack(cell=("y", "x")).values))
    data = {name: cells[name].values for name in ["no2", "pm25", "pm10", "ucomfort", "ugust", "utci"]}

    local = pd.DatetimeIndex(ds.time.values).tz_localize("UTC").tz_convert("Europe/Brussels")
    month = local.month.values
    day = (local.hour.values >= 8) & (local.hour.values < 20)
    season = np.select([np.isin(month, [12, 1, 2]), np.isin(month, [3, 4, 5]), np.isin(month, [6, 7, 8])], [0, 1, 2], 3)

    # Air: each cell's class is its worst pollutant's; cells are averaged per hour, the mean rounded half up.
    classes = np.stack([belaqi_class(data[p], p) for p in BELAQI_BOUNDS])
    worst = classes.max(axis=0).astype(float)
    worst[worst == 0] = np.nan
    hourly_class = np.floor(np.nanmean(worst, axis=1) + 0.5)
    graded = np.isfinite(hourly_class)
    good_pct = 100.0 * np.sum(hourly_class[graded] <= 4) / max(1, graded.sum())
    annual_means = {p: float(np.nanmean(np.nanmean(data[p], axis=1))) for p in BELAQI_BOUNDS}
    monthly_good = [float(100.0 * np.sum(hourly_class[graded & (month == m)] <= 4) / max(1, np.sum(graded & (month == m))))
                    for m in range(1, 13)]

    # Wind: hourly means of Ucomfort and Ugust over the cells, classes, exceedances, the 95th percentile.
    u = np.nanmean(data["ucomfort"], axis=1)
    g = np.nanmean(data["ugust"], axis=1)
    comfort = np.select([u > 15, u > 8, u > 6, u >= 4], [5, 4, 3, 2], 1)
    gust = np.select([g > 15, g >= 10], [5, 4], 0)
    wind_class = np.maximum(comfort, gust)
    exceed = {"above_frequent_sitting": float(np.mean(u > 2.5) * 100), "danger": float(np.mean(wind_class == 5) * 100)}
    for k, name in [(2, "slightly_windy_or_worse"), (3, "windy_or_worse"), (4, "very_windy_or_worse")]:
        exceed[name] = float(np.mean(wind_class >= k) * 100)
    p95 = float(np.percentile(u, 95))

    # Thermal: hourly mean UTCI, daytime comfort by season, strong heat-stress days, tropical nights.
    t = np.nanmean(data["utci"], axis=1)
    comfortable = {int(s): float(np.mean((t[day & (season == s)] > 9) & (t[day & (season == s)] <= 26)) * 100) for s in range(4)}
    dates = pd.Series(t, index=local.date)
    heat_days = int((dates.groupby(level=0).max() > 32).sum())
    night_date = (local - pd.Timedelta(hours=20)).date
    tropical = int((pd.Series(t[~day], index=night_date[~day]).groupby(level=0).min() > 20).sum())

    elapsed_ms = (time.perf_counter() - started) * 1000
    print(json.dumps({
        "ms": elapsed_ms, "cells": int(data["no2"].shape[1]), "good_pct": good_pct, "annual_means": annual_means,
        "monthly_good": monthly_good, "exceedance": exceed, "p95_ucomfort": p95, "comfortable": comfortable,
        "heat_days": heat_days, "tropical_nights": tropical,
    }))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]))
