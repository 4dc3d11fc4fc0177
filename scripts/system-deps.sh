#!/usr/bin/env bash
# Installs the Debian packages the test suite talks to for real: GDAL (gdaltransform, gdal_translate) for the
# projection control points and GeoTIFF import, its Python bindings and COG validator for the exported atlas, Debian's
# Python xarray/zarr/numpy for the cross-check that xarray reads our datasets, poppler-utils (pdfinfo, pdftotext,
# pdftoppm) for the checks of the PDF reports, DejaVu fonts for rendered text, Chromium for the browser tests (the map page, the pages' accessibility), a Java runtime
# for the Nu HTML checker (npm's vnu-jar ships the checker, not Java; its own postinstall, which would download a
# runtime, is denied in package.json's allowScripts), and nats-server (JetStream) for the cluster tests.
# Idempotent: does nothing when everything is present.
set -euo pipefail

need=()
command -v gdaltransform >/dev/null 2>&1 || need+=(gdal-bin)
/usr/bin/python3 -c 'import xarray, zarr, numpy' >/dev/null 2>&1 || need+=(python3-xarray python3-zarr python3-numpy)
/usr/bin/python3 -c 'from osgeo import gdal' >/dev/null 2>&1 || need+=(python3-gdal)
{ command -v pdfinfo && command -v pdftotext && command -v pdftoppm; } >/dev/null 2>&1 || need+=(poppler-utils)
fc-list 2>/dev/null | grep -q 'DejaVuSans.ttf' || [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v java >/dev/null 2>&1 || need+=(default-jre-headless)
command -v nats-server >/dev/null 2>&1 || need+=(nats-server)
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "system-deps: missing Debian packages: ${need[*]} (run as root or install them: apt-get install ${need[*]})" >&2
  exit 1
fi
echo "system-deps: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
