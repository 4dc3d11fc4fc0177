/**
 * The project's imports between rooms, read from the sources: a room is a folder directly under `src/` (or a file
 * there, without `.ts`), and the `workers/` entries are the room `workers`. Every relative import counts: static,
 * re-exported, type-only and dynamic (`import('…')`), since a type-only arrow couples the rooms as much as any.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/** One import from one room into another. */
export interface RoomImport {
  readonly from: string;
  readonly to: string;
  /** `path:line` of the import, the path relative to the project root. */
  readonly at: string;
  readonly typeOnly: boolean;
}

/** Every .ts file under `dir`, recursively. */
export function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? typeScriptFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** The room of `path` (relative to the project root, `/`-separated), or undefined outside `src/` and `workers/`. */
export function roomOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] === 'workers') return 'workers';
  if (parts[0] !== 'src' || parts.length < 2) return undefined;
  return parts.length === 2 ? parts[1]!.replace(/\.ts$/, '') : parts[1];
}

// `import … from '…'`, `export … from '…'` (across lines), `import '…'` and `import('…')`, relative specifiers only.
const IMPORT = /^\s*(import|export)(\s+type\b)?[^;'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;

/** The relative imports written in `text`: the specifier, its line and whether it imports types only. */
export function importsIn(text: string): { specifier: string; line: number; typeOnly: boolean }[] {
  const found: { specifier: string; line: number; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const specifier = m[3] ?? m[4] ?? m[5]!;
    const start = m.index + (m[0].length - m[0].trimStart().length);
    found.push({ specifier, line: text.slice(0, start).split('\n').length, typeOnly: m[2] !== undefined });
  }
  return found;
}

/** The imports crossing rooms in the given files (paths relative to `root`). */
export function roomImports(root: string, files: readonly string[]): RoomImport[] {
  const edges: RoomImport[] = [];
  for (const file of files) {
    const path = relative(root, file).split(sep).join('/');
    const from = roomOf(path);
    if (from === undefined) continue;
    for (const { specifier, line, typeOnly } of importsIn(readFileSync(file, 'utf8'))) {
      const target = normalize(join(dirname(path), specifier)).split(sep).join('/').replace(/\.js$/, '.ts');
      const to = roomOf(target);
      if (to !== undefined && to !== from) edges.push({ from, to, at: `${path}:${line}`, typeOnly });
    }
  }
  return edges;
}

/** The rooms of `table` that reach themselves through its arrows (empty when the table is a DAG). */
export function cyclicRooms(table: Readonly<Record<string, readonly string[]>>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const cyclic = new Set<string>();
  const visit = (room: string, path: string[]): void => {
    if (state.get(room) === 'done') return;
    if (state.get(room) === 'open') {
      for (const r of path.slice(path.indexOf(room))) cyclic.add(r);
      return;
    }
    state.set(room, 'open');
    for (const next of table[room] ?? []) visit(next, [...path, room]);
    state.set(room, 'done');
  };
  for (const room of Object.keys(table)) visit(room, []);
  return [...cyclic].sort();
}
