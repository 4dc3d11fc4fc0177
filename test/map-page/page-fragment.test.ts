import { describe, expect, it } from 'vitest';
import { cityFromFragment, keyFromFragment } from '../../public/map/api.js';

describe('the map page fragment', () => {
  it('carries the key and, optionally, the city', () => {
    expect(keyFromFragment('#key=svc_pk_abc&city=ghent')).toBe('svc_pk_abc');
    expect(cityFromFragment('#key=svc_pk_abc&city=ghent')).toBe('ghent');
    expect(cityFromFragment('#key=svc_pk_abc')).toBe('brussels');
    expect(cityFromFragment('')).toBe('brussels');
  });

  it('never puts anything but a city id into the catalog path', () => {
    for (const bad of ['../key', 'a/b', 'Brussels', '%2e%2e', 'x'.repeat(65), ' ', 'brussels?x=1']) {
      expect(cityFromFragment(`#city=${encodeURIComponent(bad)}`), bad).toBe('brussels');
    }
  });
});
