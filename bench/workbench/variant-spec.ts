/**
 * Variants as plug-ins: a folder `bench/variants/<name>/` holding `variant.json` and any `.ts` files that replace the
 * files of `assembly/` at the same relative path. `readVariant` validates a folder completely (unknown keys, kernel
 * names, flags given as strings, replacements that replace something) and returns a `VariantSpec`; every fault is a
 * `WorkbenchRefusal` with a one-line reason naming the variant.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { WorkbenchRefusal } from './refusal.js';

/** The kernels the workbench times. */
export const KERNELS = ['stats', 'precompute', 'decode'] as const;
/** One of `KERNELS`. */
export type KernelName = (typeof KERNELS)[number];

/** A variant ready to build: flags added to the release target's, and replacement sources by relative path. */
export interface VariantSpec {
  readonly name: string;
  /** Kernels the variant is meant for. */
  readonly kernels: readonly KernelName[];
  readonly asc: readonly string[];
  readonly description: string;
  /**
   * A reference point, not a candidate (`"reference": true`, e.g. `scalar`): reported with its ratio and verdict like
   * any variant, but never a regression for the exit code.
   */
  readonly reference: boolean;
  /** Relative path under `assembly/` (forward slashes) → absolute path of the replacing file. */
  readonly replacements: Readonly<Record<string, string>>;
}

const KEYS = new Set(['kernel', 'asc', 'description', 'reference']);
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** `.ts` files below `dir`, as forward-slash paths relative to it. */
function sourcesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** Checks the parsed `variant.json` of `name`; returns its kernels, flags and description. */
function checkManifest(name: string, json: unknown): Pick<VariantSpec, 'kernels' | 'asc' | 'description' | 'reference'> {
  const refuse = (why: string): never => {
    throw new WorkbenchRefusal(`Variant ${name}: variant.json ${why}.`);
  };
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return refuse('is not a JSON object');
  const record = json as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => !KEYS.has(k));
  if (unknown.length) refuse(`has unknown key ${unknown.map((k) => `"${k}"`).join(', ')} (known: kernel, asc, description, reference)`);
  const kernel = record.kernel;
  const kernels = Array.isArray(kernel) ? kernel : [kernel];
  if (kernels.length === 0 || kernels.some((k) => !KERNELS.includes(k as KernelName))) {
    refuse(`"kernel" must be one of ${KERNELS.join(', ')} or a list of them, got ${JSON.stringify(kernel)}`);
  }
  const asc = record.asc ?? [];
  if (!Array.isArray(asc) || asc.some((f) => typeof f !== 'string' || f.length === 0)) {
    refuse('"asc" must be a list of non-empty strings');
  }
  const description = record.description ?? '';
  if (typeof description !== 'string') refuse('"description" must be a string');
  const reference = record.reference ?? false;
  if (typeof reference !== 'boolean') refuse('"reference" must be true or false');
  return { kernels: kernels as KernelName[], asc: asc as string[], description: description as string, reference: reference as boolean };
}

/**
 * Reads and validates the variant folder `variantsDir/name` against the sources in `assemblyDir`. Throws
 * `WorkbenchRefusal` when the folder is missing or any part of it is wrong.
 */
export function readVariant(variantsDir: string, name: string, assemblyDir: string): VariantSpec {
  if (!NAME.test(name)) throw new WorkbenchRefusal(`Variant name "${name}" is not a folder name (letters, digits, . _ -).`);
  const dir = join(variantsDir, name);
  const manifest = join(dir, 'variant.json');
  if (!existsSync(manifest)) {
    const known = existsSync(variantsDir) ? readdirSync(variantsDir).filter((d) => statSync(join(variantsDir, d)).isDirectory()) : [];
    throw new WorkbenchRefusal(`Variant ${name}: no ${relative(process.cwd(), manifest)} (variants: ${known.join(', ') || 'none'}).`);
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(manifest, 'utf8'));
  } catch (cause) {
    throw new WorkbenchRefusal(`Variant ${name}: variant.json is not valid JSON (${(cause as Error).message}).`, { cause });
  }
  const checked = checkManifest(name, json);
  const replacements: Record<string, string> = {};
  for (const rel of sourcesBelow(dir)) {
    if (!existsSync(join(assemblyDir, rel))) {
      throw new WorkbenchRefusal(`Variant ${name}: ${rel} replaces nothing (no assembly/${rel}).`);
    }
    replacements[rel] = join(dir, rel);
  }
  return { name, ...checked, replacements };
}

/** An ad-hoc variant of the release sources with extra flags (`--asc "FLAGS"`), for any kernel. */
export function adHocVariant(flags: string): VariantSpec {
  const asc = flags.split(/\s+/).filter(Boolean);
  if (asc.length === 0) throw new WorkbenchRefusal('--asc needs at least one flag.');
  return { name: `asc(${asc.join(' ')})`, kernels: [...KERNELS], asc, description: `release with ${asc.join(' ')}`, reference: false, replacements: {} };
}
