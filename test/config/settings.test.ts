/**
 * The settings table is well formed (distinct variables, bounds and conditions that name settings read before them,
 * defaults the table itself accepts), and its conditions and bounds act in `loadConfig`.
 */
import { describe, expect, it } from 'vitest';
import { ENV_VARS, loadConfig } from '../../src/config.js';
import { configurationTable } from '../../src/config/markdown.js';
import { CONDITIONS, SETTING_KEYS, SETTINGS, type Setting } from '../../src/config/settings.js';
import { ValidationError } from '../../src/errors.js';

const CONTEXT = { dataDir: '/srv/data', docsUrl: undefined, version: '1.2.3' };

describe('the settings table', () => {
  it('names one distinct SVC_ variable per setting, as ENV_VARS does', () => {
    const names = SETTING_KEYS.map((key) => SETTINGS[key].env);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^SVC_[A-Z0-9_]+$/);
    expect(Object.values(ENV_VARS)).toEqual(names);
  });

  it('bounds and conditions name settings that come earlier in the table', () => {
    for (const [index, key] of SETTING_KEYS.entries()) {
      const { atMost, onlyWith } = SETTINGS[key];
      if (atMost !== undefined) expect(SETTING_KEYS, key).toContain(atMost);
      if (onlyWith !== undefined) expect(SETTING_KEYS.indexOf(CONDITIONS[onlyWith].on), key).toBeLessThan(index);
    }
  });

  it('accepts its own defaults', () => {
    for (const key of SETTING_KEYS) {
      const setting = SETTINGS[key] as Setting<unknown>;
      const value = typeof setting.default === 'function' ? setting.default(CONTEXT) : setting.default;
      expect(() => setting.kind.check(value, setting.env), key).not.toThrow();
    }
  });

  it('renders a row for every setting, each default stated', () => {
    const rows = configurationTable().split('\n').slice(2);
    expect(rows.map((row) => /^\| `(SVC_[A-Z0-9_]+)` \|/.exec(row)?.[1])).toEqual(Object.values(ENV_VARS));
    expect(configurationTable()).toContain('| `SVC_HEADERS_TIMEOUT_MS` | `10000` | 1–600000, at most `SVC_REQUEST_TIMEOUT_MS` |');
  });
});

describe('conditions and bounds in loadConfig', () => {
  it('reads the HTTP geocoder settings only with an HTTP geocoder', () => {
    expect(loadConfig({ SVC_GEOCODER_TIMEOUT_MS: 'soon', SVC_GEOCODER_USER_AGENT: 'caf\u00e9' }).geocoder).toEqual({ kind: 'embedded' });
    expect(() => loadConfig({ SVC_GEOCODER: 'photon:http://p', SVC_GEOCODER_TIMEOUT_MS: 'soon' })).toThrow(/SVC_GEOCODER_TIMEOUT_MS must be an integer/);
  });

  it('reads the queue settings only with SVC_NATS_URL', () => {
    expect(loadConfig({ SVC_NATS_ACK_WAIT_MS: 'x', SVC_NATS_MAX_DELIVER: '0' }).nats).toBeUndefined();
    expect(() => loadConfig({ SVC_NATS_URL: 'nats://a:4222', SVC_NATS_ACK_WAIT_MS: 'x' })).toThrow(/SVC_NATS_ACK_WAIT_MS/);
  });

  it('checks a bound whichever source gives the values, naming the lower setting', () => {
    expect(() => loadConfig({}, { headersTimeoutMs: 40_000 })).toThrow(ValidationError);
    expect(() => loadConfig({ SVC_REQUEST_TIMEOUT_MS: '5000' })).toThrow(
      'Invalid configuration: SVC_HEADERS_TIMEOUT_MS must not exceed SVC_REQUEST_TIMEOUT_MS (5000) (got 10000).',
    );
    expect(loadConfig({ SVC_HEADERS_TIMEOUT_MS: '5000', SVC_REQUEST_TIMEOUT_MS: '5000' }).headersTimeoutMs).toBe(5000);
  });

  it('derives defaults from the data directory after its override', () => {
    expect(loadConfig({ SVC_DATA_DIR: '/a' }, { dataDir: '/b' })).toMatchObject({ dbFile: '/b/svc.sqlite', reportsDir: '/b/reports' });
  });
});
