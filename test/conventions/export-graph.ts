/**
 * Which exported values of the project's code other code uses, read from the sources. Code is src/, workers/, bench/
 * (its copied variants aside) and bin/svc.js; tests are not code here. An export counts as used when another code file
 * imports it by name (`import { x }`, `export { x } from`), or imports its module by namespace, dynamically or with
 * `export *` and mentions its name. A name re-exported by a barrel is an export of the barrel in turn. Types are left
 * out: only functions, classes, enums and variables are read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { typeScriptFiles } from './import-graph.js';

/** One exported value: the file that exports it (relative to the project root) and its name. */
export interface ExportedValue {
  readonly file: string;
  readonly name: string;
}

/** The code files of the project, relative to `root`, `/`-separated. */
export function codeFiles(root: string): string[] {
  const ts = ['src', 'workers', 'bench'].flatMap((dir) => typeScriptFiles(join(root, dir)));
  return [...ts, join(root, 'bin/svc.js')]
    .map((path) => relative(root, path).split(sep).join('/'))
    .filter((path) => !path.startsWith('bench/variants/'));
}

const DECLARED = /^export\s+(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\s*\*?|class|enum|const\s+enum|const|let|var)\s+([A-Za-z_$][\w$]*)/gm;
const LISTED = /^export\s*\{([^}]*)\}\s*(?:from\s*['"]([^'"]+)['"])?/gm;
const STATIC_IMPORT = /^\s*import\s+(?:type\s+)?([^;'"]*?)\s*from\s*['"]([^'"]+)['"]/gm;
const STAR_EXPORT = /^export\s*\*\s*(?:as\s+\w+\s*)?from\s*['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * The names in a `{ a, b as c, type D }` list: `[local, exported]` pairs. `type` entries are kept when `withTypes`
 * (an import of a value's type, `typeof a`, uses the value's export) and left out otherwise (an export of a type).
 */
function listed(body: string, withTypes: boolean): [string, string][] {
  return body
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && (withTypes || !part.startsWith('type ')))
    .map((part) => part.replace(/^type\s+/, ''))
    .map((part) => {
      const [local, alias] = part.split(/\s+as\s+/);
      return [local!.trim(), (alias ?? local!).trim()];
    });
}

/** The project file a relative specifier of `from` names (`.js` read as `.ts`; `dist/` read as the source), if any. */
export function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = normalize(join(dirname(from), specifier)).split(sep).join('/');
  const source = target.replace(/^dist\//, '').replace(/\.js$/, '.ts');
  return existsSync(join(root, source)) ? source : undefined;
}

/** What one code file exports and imports. */
interface FileFacts {
  /** The value names it exports (declared or listed, re-exports included). */
  readonly exports: string[];
  /** Per imported file, the names it takes by name. */
  readonly named: Map<string, Set<string>>;
  /** The files it imports whole (namespace, dynamic, `export *`): any name it mentions counts. */
  readonly whole: Set<string>;
  readonly text: string;
}

function factsOf(root: string, file: string): FileFacts {
  const text = readFileSync(join(root, file), 'utf8');
  const exports = [...text.matchAll(DECLARED)].map((m) => m[1]!);
  const named = new Map<string, Set<string>>();
  const whole = new Set<string>();
  const take = (target: string | undefined, names: readonly string[]): void => {
    if (target === undefined) return;
    const set = named.get(target) ?? new Set<string>();
    for (const name of names) set.add(name);
    named.set(target, set);
  };
  for (const m of text.matchAll(LISTED)) {
    exports.push(...listed(m[1]!, false).map(([, exported]) => exported));
    if (m[2] !== undefined) take(resolveSpecifier(root, file, m[2]), listed(m[1]!, true).map(([local]) => local));
  }
  for (const m of text.matchAll(STATIC_IMPORT)) {
    const target = resolveSpecifier(root, file, m[2]!);
    const clause = m[1]!;
    const braces = /\{([^}]*)\}/.exec(clause);
    if (braces) take(target, listed(braces[1]!, true).map(([local]) => local));
    if (/\*\s*as\s+\w+/.test(clause) && target !== undefined) whole.add(target);
  }
  for (const pattern of [STAR_EXPORT, DYNAMIC_IMPORT]) {
    for (const m of text.matchAll(pattern)) {
      const target = resolveSpecifier(root, file, m[1]!);
      if (target !== undefined) whole.add(target);
    }
  }
  return { exports: exports.filter((name) => name !== 'default'), named, whole, text };
}

/** The exported values of `files` that no other file of `files` uses, sorted by file and name. */
export function unusedExports(root: string, files: readonly string[]): ExportedValue[] {
  const facts = new Map(files.map((file) => [file, factsOf(root, file)]));
  const mentions = (text: string, name: string): boolean =>
    new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(text);
  const unused: ExportedValue[] = [];
  for (const [file, { exports }] of facts) {
    for (const name of new Set(exports)) {
      const used = [...facts].some(
        ([other, f]) => other !== file && (f.named.get(file)?.has(name) || (f.whole.has(file) && mentions(f.text, name))),
      );
      if (!used) unused.push({ file, name });
    }
  }
  return unused.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
}
