/**
 * JSON Schemas of parameters and bodies as HTML: a short type label (`number or null`, `array of string`, `map of
 * number`), the constraints in words, and the fields of objects as a tree (nested objects folded below the first level).
 */
import { escapeHtml, inline } from './html.js';
import type { JsonSchema } from './openapi-types.js';

function isNull(s: JsonSchema): boolean {
  return s.type === 'null';
}

/** The non-null alternative of a nullable union (`anyOf: [X, null]`), or undefined when `s` is not one. */
function nullableOf(s: JsonSchema): JsonSchema | undefined {
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives?.length !== 2 || !alternatives.some(isNull)) return undefined;
  return alternatives.find((a) => !isNull(a));
}

/** The schema of a map's values (`additionalProperties` or a single `patternProperties` entry), if it is a map. */
function mapValues(s: JsonSchema): JsonSchema | undefined {
  if (s.properties !== undefined && Object.keys(s.properties).length > 0) return undefined;
  if (typeof s.additionalProperties === 'object') return s.additionalProperties;
  const patterns = Object.values(s.patternProperties ?? {});
  return patterns.length === 1 ? patterns[0] : undefined;
}

/** A short label of the type: `string`, `integer or null`, `array of number`, `map of number or null`, `object`. */
export function typeLabel(s: JsonSchema): string {
  const inner = nullableOf(s);
  if (inner !== undefined) return `${typeLabel(inner)} or null`;
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives !== undefined) return alternatives.map(typeLabel).join(' or ');
  if (Array.isArray(s.type)) return s.type.join(' or ');
  if (s.type === 'array') return s.items ? `array of ${typeLabel(s.items)}` : 'array';
  if (s.type === 'object' || s.properties !== undefined) {
    const values = mapValues(s);
    return values !== undefined ? `map of ${typeLabel(values)}` : 'object';
  }
  if (typeof s.type === 'string') return s.format !== undefined ? `${s.type} (${s.format})` : s.type;
  if (s.enum !== undefined) return 'enum';
  return 'any';
}

function literal(value: unknown): string {
  return `<code>${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</code>`;
}

/** The constraints of a schema in words (range, length, pattern, allowed values, default). */
export function constraints(s: JsonSchema): string[] {
  const inner = nullableOf(s) ?? s;
  const out: string[] = [];
  if (inner.enum !== undefined) {
    out.push(inner.enum.length === 1 ? `always ${literal(inner.enum[0])}` : `one of ${inner.enum.map(literal).join(', ')}`);
  }
  if (inner.const !== undefined) out.push(`always ${literal(inner.const)}`);
  if (inner.minimum !== undefined && inner.maximum !== undefined) out.push(`${inner.minimum} to ${inner.maximum}`);
  else if (inner.minimum !== undefined) out.push(`≥ ${inner.minimum}`);
  else if (inner.maximum !== undefined) out.push(`≤ ${inner.maximum}`);
  if (inner.exclusiveMinimum !== undefined) out.push(`> ${inner.exclusiveMinimum}`);
  if (inner.exclusiveMaximum !== undefined) out.push(`< ${inner.exclusiveMaximum}`);
  if (inner.minLength !== undefined || inner.maxLength !== undefined) {
    const lo = inner.minLength ?? 0;
    out.push(inner.maxLength !== undefined ? `${lo} to ${inner.maxLength} characters` : `at least ${lo} character${lo === 1 ? '' : 's'}`);
  }
  if (inner.minItems !== undefined && inner.minItems === inner.maxItems) out.push(`exactly ${inner.minItems} items`);
  else {
    if (inner.minItems !== undefined) out.push(`at least ${inner.minItems} items`);
    if (inner.maxItems !== undefined) out.push(`at most ${inner.maxItems} items`);
  }
  if (inner.pattern !== undefined) out.push(`pattern ${literal(inner.pattern)}`);
  if (inner.items?.enum !== undefined) out.push(`items one of ${inner.items.enum.map(literal).join(', ')}`);
  if (inner.default !== undefined) out.push(`default ${literal(inner.default)}`);
  return out;
}

/** The fields an object-like schema shows as children: its own, its items', or its map values'. */
function childrenOf(s: JsonSchema): { label: string; schema: JsonSchema } | undefined {
  const inner = nullableOf(s) ?? s;
  const hasFields = (x: JsonSchema | undefined) => x?.properties !== undefined && Object.keys(x.properties).length > 0;
  if (hasFields(inner)) return { label: 'fields', schema: inner };
  if (inner.type === 'array' && hasFields(inner.items)) return { label: 'fields of each item', schema: inner.items! };
  const values = mapValues(inner);
  if (hasFields(values)) return { label: 'fields of each value', schema: values! };
  return undefined;
}

/** The description of a schema, looking into a nullable union when the outer schema has none. */
function descriptionOf(s: JsonSchema): string | undefined {
  return s.description ?? nullableOf(s)?.description;
}

/** One field: name, type, required mark, constraints, description and its own fields. */
function fieldHtml(name: string, s: JsonSchema, required: boolean, depth: number): string {
  const cons = constraints(s);
  const children = childrenOf(s);
  const description = descriptionOf(s);
  return `<li class="field">
<div class="field-head"><code class="field-name">${escapeHtml(name)}</code><span class="field-type">${escapeHtml(typeLabel(s))}</span>${
    required ? '<span class="field-req">required</span>' : ''
  }</div>${description ? `<div class="field-desc">${inline(description)}</div>` : ''}${
    cons.length > 0 ? `<div class="field-cons">${cons.join(' · ')}</div>` : ''
  }${children ? nested(children.label, children.schema, depth + 1) : ''}</li>`;
}

function nested(label: string, s: JsonSchema, depth: number): string {
  const count = Object.keys(s.properties ?? {}).length;
  return `<details class="nested"${depth <= 1 ? ' open' : ''}><summary>${count} ${escapeHtml(label)}</summary>${fieldsHtml(s, depth)}</details>`;
}

/** The fields of an object schema as a list, required ones marked, in schema order. */
function fieldsHtml(s: JsonSchema, depth = 0): string {
  const required = new Set(s.required ?? []);
  const items = Object.entries(s.properties ?? {}).map(([name, field]) => fieldHtml(name, field, required.has(name), depth));
  return `<ul class="fields">${items.join('')}</ul>`;
}

/** A whole body schema: its fields when it has any, otherwise its type, constraints and description. */
export function bodySchemaHtml(s: JsonSchema): string {
  const children = childrenOf(s);
  if (children !== undefined) {
    const intro = children.schema === s ? '' : `<p class="schema-kind">${escapeHtml(typeLabel(s))}, ${escapeHtml(children.label)}:</p>`;
    return `${intro}${fieldsHtml(children.schema, 0)}`;
  }
  const cons = constraints(s);
  return `<p class="schema-kind"><span class="field-type">${escapeHtml(typeLabel(s))}</span>${cons.length ? ` ${cons.join(' · ')}` : ''}</p>`;
}
