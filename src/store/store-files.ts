/**
 * The full set of metadata files of a dataset, keyed by store path (`.zgroup`, `.zattrs`, `no2/.zarray`, ...), with
 * the consolidated `.zmetadata` that xarray and the reader open first.
 */
import type { StorageCodecs } from './codecs.js';
import { STATIC_ARRAYS, type DatasetSpec } from './dataset-types.js';
import {
  consolidate, coordinateMeta, groupAttrs, hourlyArrayMeta, staticArrayMeta, type ArrayMeta,
} from './zarr-metadata.js';

/** Every metadata file of the dataset described by `spec`, including `.zmetadata`. */
export function storeMetadataFiles(spec: DatasetSpec, codecs: StorageCodecs): Record<string, unknown> {
  const arrays: Record<string, ArrayMeta> = { ...coordinateMeta(spec) };
  for (const field of spec.attrs.fields) arrays[field] = hourlyArrayMeta(spec, field, codecs);
  for (const name of STATIC_ARRAYS) arrays[name] = staticArrayMeta(spec, name, codecs);
  const files: Record<string, unknown> = { '.zgroup': { zarr_format: 2 }, '.zattrs': groupAttrs(spec) };
  for (const [name, meta] of Object.entries(arrays)) {
    files[`${name}/.zarray`] = meta.zarray;
    files[`${name}/.zattrs`] = meta.zattrs;
  }
  return { ...files, '.zmetadata': consolidate(files) };
}
