/**
 * The contract of the storage seam (src/store/data-location.ts), run against every back end
 * (test/store/data-location.test.ts): `make` lays out the same small tree of files and hands back the location of its
 * root. A new back end passes this suite first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataLocation, type DataLocation } from '../../src/store/data-location.js';

/** The files every back end is given: relative path → bytes. */
export const CONTRACT_FILES: Readonly<Record<string, Uint8Array>> = Object.freeze({
  'ds/.zmetadata': new TextEncoder().encode('{"metadata":{}}'),
  'ds/no2/0/1/2': Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff),
  'other/.zgroup': new TextEncoder().encode('{"zarr_format":2}'),
});

/** A back end under test: its root holding `CONTRACT_FILES`, and a location whose reads fail other than by absence. */
export interface LocationFixture {
  readonly root: DataLocation;
  readonly faulty: DataLocation;
  /** Whether this back end lists directories (`list()` answers) and tells directories from files (`state()`). */
  readonly lists: boolean;
  close(): Promise<void>;
}

/** Runs the contract against the back end `make` builds. */
export function describeDataLocation(name: string, make: (files: Readonly<Record<string, Uint8Array>>) => Promise<LocationFixture>): void {
  describe(`DataLocation contract: ${name}`, () => {
    let fx: LocationFixture;
    beforeAll(async () => {
      fx = await make(CONTRACT_FILES);
    });
    afterAll(async () => fx?.close());

    it('is what the one decider makes of its own string, and joins parts below it', () => {
      const again = dataLocation(fx.root.href);
      expect(again.href).toBe(fx.root.href);
      expect(again.failureIsDamage).toBe(fx.root.failureIsDamage);
      expect(fx.root.join('ds', 'no2/0', '1', '2').href).toBe(fx.root.join('ds/no2/0/1/2').href);
      expect(fx.root.join('ds').join('.zmetadata').href).toBe(fx.root.join('ds', '.zmetadata').href);
      expect(dataLocation(fx.root)).toBe(fx.root);
      expect(dataLocation(fx.root.absolute().href).absolute().href).toBe(fx.root.absolute().href);
    });

    it('reads stored bytes, and absence as undefined', async () => {
      expect(await fx.root.join('ds/no2/0/1/2').read()).toEqual(CONTRACT_FILES['ds/no2/0/1/2']);
      expect(await fx.root.join('ds/no2/0/1/3').read()).toBeUndefined();
      expect(await fx.root.join('missing/.zmetadata').read()).toBeUndefined();
    });

    it('says whether something is stored, absence as false', async () => {
      expect(await fx.root.join('ds/.zmetadata').exists()).toBe(true);
      expect(await fx.root.join('ds/.zgroup').exists()).toBe(false);
      expect(await fx.root.join('missing').join('.zgroup').exists()).toBe(false);
    });

    it('fails other than by absence with an error carrying a code', async () => {
      const err = await fx.faulty.read().then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(typeof (err as { code?: unknown }).code).toBe('string');
    });

    it('tells directories, files and absence apart where it can, and says so where it cannot', async () => {
      const states = await Promise.all(['ds', 'ds/.zmetadata', 'missing'].map((p) => fx.root.join(p).state()));
      expect(states).toEqual(fx.lists ? ['directory', 'file', 'absent'] : ['unknown', 'unknown', 'unknown']);
    });

    it('lists the names below, sorted, or answers undefined where it cannot list', async () => {
      const names = await fx.root.list();
      expect(names).toEqual(fx.lists ? ['ds', 'other'] : undefined);
    });

    it('serves keys below it as a key store, absence as undefined', async () => {
      for (const options of [{}, { sync: true }, { expectedSize: () => 300 }, { sync: true, expectedSize: () => 300 }]) {
        const store = fx.root.join('ds').keyStore(options);
        expect(await store.get('/no2/0/1/2')).toEqual(CONTRACT_FILES['ds/no2/0/1/2']);
        expect(await store.get('/no2/0/1/3')).toBeUndefined();
      }
    });

    it('reads ranges of stored bytes at any offset, absence as undefined', async () => {
      const all = CONTRACT_FILES['ds/no2/0/1/2']!;
      const source = await fx.root.join('ds/no2/0/1/2').openRanges();
      expect(source?.size).toBe(all.byteLength);
      expect(source?.read(0, 10)).toEqual(all.subarray(0, 10));
      expect(source?.read(128, 64)).toEqual(all.subarray(128, 192));
      expect(source?.read(290, 64)).toEqual(all.subarray(290));
      source?.close();
      source?.close();
      expect(await fx.root.join('ds/no2/0/1/3').openRanges()).toBeUndefined();
    });
  });
}
