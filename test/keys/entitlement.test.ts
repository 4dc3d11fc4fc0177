import { describe, expect, it } from 'vitest';
import { ForbiddenError } from '../../src/errors.js';
import { checkCity, checkKeyState, checkOrigin, checkProduct, holdsMetric, keyLimits } from '../../src/keys/entitlement.js';
import type { ApiKeyRecord } from '../../src/keys/key-types.js';

const base: ApiKeyRecord = {
  id: 1, type: 'sk', label: 'x', cities: ['brussels'], products: ['historical'], metrics: ['air'], origins: [],
  ratePerMin: undefined, reportsPerDay: undefined, createdUtc: '2025-01-01T00:00:00.000Z', expiresAt: undefined,
  active: true, deactivatedUtc: undefined,
};
const limits = { secretPerMin: 600, publishablePerMin: 120, reportsPerDay: 50 };

describe('entitlement', () => {
  it('refuses deactivated and expired keys', () => {
    expect(() => checkKeyState(base, 0)).not.toThrow();
    expect(() => checkKeyState({ ...base, active: false }, 0)).toThrow(/deactivated/);
    const expiring = { ...base, expiresAt: '2025-06-01T00:00:00.000Z' };
    expect(() => checkKeyState(expiring, Date.parse('2025-05-31T23:59:59.999Z'))).not.toThrow();
    expect(() => checkKeyState(expiring, Date.parse('2025-06-01T00:00:00.000Z'))).toThrow(/expired/);
  });

  it('checks product, city and metric scope, with the * wildcard', () => {
    expect(() => checkProduct(base, 'historical')).not.toThrow();
    expect(() => checkProduct(base, 'geocode')).toThrow(ForbiddenError);
    expect(() => checkProduct({ ...base, products: ['*'] }, 'map')).not.toThrow();
    expect(() => checkCity(base, 'ghent')).toThrow(/ghent/);
    expect(() => checkCity({ ...base, cities: ['*'] }, 'ghent')).not.toThrow();
    expect(holdsMetric(base, 'air')).toBe(true);
    expect(holdsMetric(base, 'wind')).toBe(false);
  });

  it('refuses secret keys from browsers and unregistered origins for publishable keys', () => {
    const none = { origin: undefined, secFetchSite: undefined };
    expect(() => checkOrigin(base, none)).not.toThrow();
    expect(() => checkOrigin(base, { ...none, origin: 'https://a.example' })).toThrow(/browser/);
    expect(() => checkOrigin(base, { ...none, secFetchSite: 'same-site' })).toThrow(/browser/);
    const pk: ApiKeyRecord = { ...base, type: 'pk', origins: ['https://a.example'] };
    expect(() => checkOrigin(pk, none)).not.toThrow();
    expect(() => checkOrigin(pk, { ...none, secFetchSite: 'cross-site' })).not.toThrow();
    expect(() => checkOrigin(pk, { ...none, origin: 'https://a.example' })).not.toThrow();
    expect(() => checkOrigin(pk, { ...none, origin: 'https://b.example' })).toThrow(/not registered/);
  });

  it('fills limits from the defaults of the key type', () => {
    expect(keyLimits(base, limits)).toEqual({ ratePerMin: 600, reportsPerDay: 50 });
    expect(keyLimits({ ...base, type: 'pk' }, limits)).toEqual({ ratePerMin: 120, reportsPerDay: 50 });
    expect(keyLimits({ ...base, ratePerMin: 7, reportsPerDay: 2 }, limits)).toEqual({ ratePerMin: 7, reportsPerDay: 2 });
  });
});
