import { describe, expect, it } from 'vitest';
import { DamagedDataError } from '../../src/errors.js';
import { DamageRegistry } from '../../src/store/damage-registry.js';

const damage = (dataset: string, part: string) =>
  new DamagedDataError(`Dataset '${dataset}' is damaged: ${part}.`, { dataset, path: `/data/${dataset}/${part}` });

describe('damage registry', () => {
  it('logs each distinct problem once, however often it is reported', () => {
    const lines: [object, string][] = [];
    const registry = new DamageRegistry({ now: () => Date.parse('2025-03-01T10:00:00Z'), logger: { error: (o, m) => lines.push([o, m]) } });
    expect(registry.report(damage('ghent', 'chunk no2/0/1/2 is missing'))).toBe(true);
    for (let i = 0; i < 5; i++) expect(registry.report(damage('ghent', 'chunk no2/0/1/2 is missing'))).toBe(false);
    expect(registry.report(damage('ghent', 'chunk pm10/0/0/0 is missing'))).toBe(true);
    expect(lines).toHaveLength(2);
    expect(lines[0][0]).toEqual({ dataset: 'ghent', path: '/data/ghent/chunk no2/0/1/2 is missing' });
    expect(lines[0][1]).toMatch(/^Dataset 'ghent' is damaged: chunk no2\/0\/1\/2 is missing\. Repair or regenerate the dataset, .*svc data verify.*Logged once per problem\.$/);
  });

  it('summarises damaged datasets by id: problem count, first problem and when it was found', () => {
    let now = Date.parse('2025-03-01T10:00:00Z');
    const registry = new DamageRegistry({ now: () => now });
    expect(registry.damaged()).toEqual([]);
    registry.report(damage('zeta', 'its consolidated metadata (.zmetadata) is corrupt (not JSON)'));
    now += 60_000;
    registry.report(damage('alpha', 'chunk no2/0/0/0 is missing'));
    registry.report(damage('alpha', 'chunk no2/0/0/1 is missing'));
    registry.report(damage('alpha', 'chunk no2/0/0/1 is missing'));
    expect(registry.damaged()).toEqual([
      { dataset: 'alpha', problems: 2, detail: "Dataset 'alpha' is damaged: chunk no2/0/0/0 is missing.", since: '2025-03-01T10:01:00.000Z' },
      { dataset: 'zeta', problems: 1, detail: "Dataset 'zeta' is damaged: its consolidated metadata (.zmetadata) is corrupt (not JSON).", since: '2025-03-01T10:00:00.000Z' },
    ]);
  });

  it('logs problems reported before a logger was attached when it is, and only then', () => {
    const registry = new DamageRegistry();
    registry.report(damage('ghent', 'chunk a is missing'));
    registry.report(damage('ghent', 'chunk a is missing'));
    const lines: string[] = [];
    registry.attachLogger({ error: (_o, m) => lines.push(m) });
    expect(lines).toHaveLength(1);
    registry.report(damage('ghent', 'chunk a is missing'));
    registry.report(damage('ghent', 'chunk b is missing'));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('chunk b is missing');
  });
});
