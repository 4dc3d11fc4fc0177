/**
 * The lists the recipes of docs/architecture.md ("Where to add things") ask a newcomer to extend are kept complete:
 * every room and sub-room of src/ is drawn in the room list of docs/architecture.md (and nothing drawn there is
 * gone), every `svc` command of the command index has its row in the README's command table, every benchmark of
 * bench/registry.ts is named in the README and in docs/benchmarks.md, and every page of docs/ is linked from the
 * README's "Layout and documentation".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS } from '../../bench/registry.js';
import { COMMAND_INDEX } from '../../src/cli/command-index.js';
import { PROJECT_ROOT } from '../../src/util/paths.js';

const read = (page: string) => readFileSync(join(PROJECT_ROOT, page), 'utf8');
const SRC = join(PROJECT_ROOT, 'src');

/** One entry of the room list: the rooms a line names (`geo/, db/, util/, errors.ts`) and the text describing them. */
interface DrawnRoom {
  readonly names: readonly string[];
  readonly text: string;
}

/**
 * The rooms drawn under src/ in the code block of "The rooms, top to bottom": a line indented two spaces names one or
 * more rooms (`name/` or `name.ts`, separated by commas, before its description); the lines indented further that follow describe them (their
 * sub-rooms as `name/`).
 */
export function drawnRooms(page: string): DrawnRoom[] {
  const block = page.split('## The rooms, top to bottom')[1]!.split('```')[1]!;
  const lines = block.split('\n');
  const start = lines.findIndex((line) => line.startsWith('src/'));
  const rooms: { names: string[]; text: string }[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith(' ')) break; // the next top-level entry (assembly/, bench/, …)
    if (/^ {2}\S/.test(line)) {
      const head = /^[\w-]+(?:\/|\.ts)(?:,\s*[\w-]+(?:\/|\.ts))*/.exec(line.trim())?.[0] ?? '';
      rooms.push({ names: head.split(/,\s*/).map((n) => n.replace(/\/$|\.ts$/, '')), text: line });
    } else if (rooms.length > 0) rooms[rooms.length - 1]!.text += `\n${line}`;
  }
  return rooms;
}

/** The words of a README command cell (`svc keys create\|list [--db FILE]`) as the command paths it names. */
export function commandPaths(cell: string): string[] {
  let paths: string[][] = [[]];
  for (const word of cell.replace(/^svc /, '').split(' ')) {
    if (!/^[a-z][a-z-]*(\\\|[a-z][a-z-]*)*$/.test(word)) break; // an option, an argument (DIR) or a bracket
    paths = paths.flatMap((p) => word.split('\\|').map((w) => [...p, w]));
  }
  return paths.map((p) => p.join(' '));
}

describe('the room list of docs/architecture.md', () => {
  const drawn = drawnRooms(read('docs/architecture.md'));
  const names = new Set(drawn.flatMap((r) => r.names));
  const rooms = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory() || n.endsWith('.ts')).map((n) => n.replace(/\.ts$/, ''));

  it('draws every room of src/, and no room that is gone', () => {
    expect([...new Set(rooms)].filter((r) => !names.has(r)).sort()).toEqual([]);
    expect([...names].filter((n) => !rooms.includes(n)).sort()).toEqual([]);
  });

  it('names every sub-room (src/<room>/<folder>/) in its room’s entry', () => {
    const missing: string[] = [];
    for (const room of rooms.filter((r) => statSync(join(SRC, r), { throwIfNoEntry: false })?.isDirectory())) {
      const entry = drawn.find((r) => r.names.includes(room));
      for (const sub of readdirSync(join(SRC, room)).filter((n) => statSync(join(SRC, room, n)).isDirectory())) {
        if (entry === undefined || !entry.text.includes(`${sub}/`)) missing.push(`${room}/${sub}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is read as the page writes it (two rooms on one line, sub-rooms below)', () => {
    const page = '## The rooms, top to bottom\n\n```\nsrc/\n  a/           one\n    b/           below\n  c/, d.ts one, two\nbench/  x\n```\n';
    expect(drawnRooms(page)).toEqual([
      { names: ['a'], text: '  a/           one\n    b/           below' },
      { names: ['c', 'd'], text: '  c/, d.ts one, two' },
    ]);
  });
});

describe('the README', () => {
  it('has a row of its command table for every command of the index (src/cli/command-index.ts)', () => {
    const table = read('README.md').split('## Command line')[1]!.split('\n## ')[0]!;
    const rows = new Set([...table.matchAll(/^\| `(svc [^`]+)` \|/gm)].flatMap((m) => commandPaths(m[1]!)));
    expect(COMMAND_INDEX.map((e) => e.path.join(' ')).filter((p) => !rows.has(p))).toEqual([]);
    expect(commandPaths('svc keys create\\|list [--db FILE]')).toEqual(['keys create', 'keys list']);
    expect(commandPaths('svc data verify DIR [--write-manifest]')).toEqual(['data verify']);
  });

  it('names every benchmark of bench/registry.ts, and docs/benchmarks.md shows how to run each', () => {
    const line = /`npm run bench -- ([a-z|-]+)`/.exec(read('README.md').split('## Benchmarks')[1]!)![1]!;
    const listed = new Set(line.split('|'));
    const page = read('docs/benchmarks.md');
    expect(Object.keys(BENCHMARKS).filter((name) => !listed.has(name))).toEqual([]);
    expect([...listed].filter((name) => !(name in BENCHMARKS))).toEqual([]);
    expect(Object.keys(BENCHMARKS).filter((name) => !page.includes(`npm run bench -- ${name}`))).toEqual([]);
  });

  it('links every page of docs/ from "Layout and documentation"', () => {
    const section = read('README.md').split('## Layout and documentation')[1]!.split('\n## ')[0]!;
    const pages = readdirSync(join(PROJECT_ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    expect(pages.filter((page) => !section.includes(`](docs/${page})`))).toEqual([]);
  });
});
