/**
 * The API's reading of binary grid answers: the size headers must agree with the body, the element type of a static
 * array must be the contract's, and anything else is the upstream's failure, never a wrong grid.
 */
import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import { checkDatasetInfo, createModelServiceClient } from '../../src/upstream/model-service-client.js';
import { readFloat32Grid, readUint8Grid } from '../../src/upstream/grid-body.js';
import type { Upstream, UpstreamResponse } from '../../src/upstream/upstream-types.js';

const answer = (body: Uint8Array, headers: Record<string, string>): UpstreamResponse => ({ status: 200, headers, body });
const floats = (values: number[]) => new Uint8Array(Float32Array.from(values).buffer);

describe('grid bodies', () => {
  it('read float32 little-endian and bytes into shared memory', () => {
    const grid = readFloat32Grid('model service', answer(floats([1.5, Number.NaN, -2, 4]), { 'x-grid-nx': '2', 'x-grid-ny': '2' }));
    expect([...grid.values]).toEqual([1.5, Number.NaN, -2, 4]);
    expect(grid.values.buffer).toBeInstanceOf(SharedArrayBuffer);
    const mask = readUint8Grid('model service', answer(Uint8Array.from([1, 0, 1]), { 'x-grid-nx': '3', 'x-grid-ny': '1' }));
    expect([...mask.values]).toEqual([1, 0, 1]);
  });

  it.each([
    [{ 'x-grid-nx': '2' }, 16],
    [{ 'x-grid-nx': '2', 'x-grid-ny': '0' }, 0],
    [{ 'x-grid-nx': '-2', 'x-grid-ny': '2' }, 16],
    [{ 'x-grid-nx': '2', 'x-grid-ny': '2' }, 12],
    [{ 'x-grid-nx': '2', 'x-grid-ny': '2' }, 20],
    [{ 'x-grid-nx': '100000', 'x-grid-ny': '100000' }, 16],
  ])('refuse %j with %i bytes as an upstream error', (headers, bytes) => {
    expect(() => readFloat32Grid('model service', answer(new Uint8Array(bytes), headers))).toThrow(UpstreamError);
  });

  it('refuse a static array of another element type, and a dataset description without a Lambert 72 grid or with an unlabelled provenance', async () => {
    const upstream: Upstream = {
      name: 'model service',
      request: async () => answer(floats([1, 2]), { 'x-grid-nx': '2', 'x-grid-ny': '1', 'x-array-dtype': 'float32' }),
    };
    await expect(createModelServiceClient(upstream).outdoorMask('d')).rejects.toThrow(/another element type/);
    const grid = { crs_epsg: 31370, nx: 2, ny: 2, x0: 0, y0: 0, resolution_m: 10 };
    const info = { dataset: 'd', content_version: 'v', fields: ['utci'], grid };
    expect(checkDatasetInfo('model service', info)).toBe(info);
    // A provenance is optional; one without its label is malformed.
    const labelled = { ...info, provenance: { label: 'Model: PALM-4U.', stand_in: false } };
    expect(checkDatasetInfo('model service', labelled)).toBe(labelled);
    for (const bad of [{ ...info, grid: { ...grid, crs_epsg: 4326 } }, { ...info, grid: { ...grid, nx: 1.5 } }, { ...info, fields: 'utci' }, { ...info, content_version: 3 },
      { ...info, provenance: { stand_in: true } }, { ...info, provenance: 'stand-in' }]) {
      expect(() => checkDatasetInfo('model service', bad)).toThrow(UpstreamError);
    }
  });
});
