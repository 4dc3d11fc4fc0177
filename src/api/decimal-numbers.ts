/**
 * Numbers in requests are decimal and finite, in the query string, in path parameters and in JSON bodies alike.
 *
 * Fastify validates with Ajv, whose type coercion turns any string JavaScript's `Number()` accepts into a number:
 * `0x32` becomes 50, `0b110010` and `0o62` too, ` 10 ` becomes 10, `true` becomes 1, `null` 0, and `Infinity` or
 * `1e309` become Infinity, for which Ajv then skips `minimum` and `maximum`, so an infinite radius reached the compute
 * back end. This wrapper of Fastify's validator compiler runs first on every request part a route validates: each value
 * whose schema says `number` or `integer` must be a finite JSON number or a string in decimal notation (an optional
 * sign, digits with an optional decimal point, an optional exponent), else the request is refused with a validation
 * error like any other (400 `validation_error`). Values that pass are left to Ajv, whose coercion of a decimal string
 * is exactly `Number()` of it. The schemas themselves, and so the OpenAPI document, still say `number` / `integer`.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifySchemaValidationError } from 'fastify';

/** Decimal notation: `12`, `-0.5`, `.5`, `5.`, `+1e3`, `2.5E-2`; never hexadecimal, binary, octal, blanks or words. */
const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The value in decimal notation and finite (what a numeric parameter accepts as text). */
export function isDecimalNumber(text: string): boolean {
  return DECIMAL_NUMBER.test(text) && Number.isFinite(Number(text));
}

type JsonSchema = Readonly<Record<string, unknown>>;
/** Checks one value at `path` (a JSON pointer); an error when it breaks the rule. */
type Check = (value: unknown, path: string) => FastifySchemaValidationError | undefined;

const NUMERIC = new Set(['number', 'integer']);

function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  const type = schema.type;
  if (typeof type === 'string') types.add(type);
  else if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') types.add(t);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) if (isSchema(b)) for (const t of typesOf(b)) types.add(t);
  }
  return types;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

function refused(path: string, message: string): FastifySchemaValidationError {
  return { keyword: 'decimal', instancePath: path, schemaPath: '#/type', params: {}, message };
}

/** The check of a value whose schema admits a number: the types it admits decide what else may stand there. */
function numberCheck(types: Set<string>): Check {
  const strings = types.has('string');
  const booleans = types.has('boolean');
  const nulls = types.has('null');
  const rule = types.has('number') ? 'must be a decimal number' : 'must be an integer in decimal notation';
  const one = (value: unknown, path: string): FastifySchemaValidationError | undefined => {
    if (typeof value === 'number') return Number.isFinite(value) ? undefined : refused(path, 'must be a finite number');
    if (typeof value === 'string') return strings || isDecimalNumber(value) ? undefined : refused(path, rule);
    if ((typeof value === 'boolean' && !booleans) || (value === null && !nulls)) return refused(path, rule);
    return undefined;
  };
  // Ajv also unwraps a one-element array into a scalar (coercion mode 'array'): the element obeys the same rule.
  return (value, path) => one(Array.isArray(value) && value.length === 1 ? value[0] : value, path);
}

/** The check for values of `schema`, or undefined when nothing in it admits a number. */
function checkFor(schema: unknown): Check | undefined {
  if (!isSchema(schema)) return undefined;
  const checks: Check[] = [];
  const types = typesOf(schema);
  if ([...types].some((t) => NUMERIC.has(t))) checks.push(numberCheck(types));
  const properties = isSchema(schema.properties) ? Object.entries(schema.properties) : [];
  const named = new Map<string, Check>();
  for (const [name, sub] of properties) {
    const check = checkFor(sub);
    if (check) named.set(name, check);
  }
  const patterns: [RegExp, Check][] = [];
  if (isSchema(schema.patternProperties)) {
    for (const [source, sub] of Object.entries(schema.patternProperties)) {
      const check = checkFor(sub);
      if (check) patterns.push([new RegExp(source, 'u'), check]);
    }
  }
  const others = checkFor(schema.additionalProperties);
  if (named.size > 0 || patterns.length > 0 || others) {
    checks.push((value, path) => {
      if (!isSchema(value)) return undefined;
      for (const [key, item] of Object.entries(value)) {
        const own = named.get(key);
        const matching = patterns.filter(([re]) => re.test(key)).map(([, c]) => c);
        const applicable = own ? [own, ...matching] : matching.length > 0 ? matching : others ? [others] : [];
        for (const check of applicable) {
          const error = check(item, pointer(path, key));
          if (error) return error;
        }
      }
      return undefined;
    });
  }
  const items = checkFor(schema.items);
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems.map(checkFor) : [];
  if (items || prefix.some(Boolean)) {
    checks.push((value, path) => {
      if (!Array.isArray(value)) return undefined;
      for (let i = 0; i < value.length; i++) {
        const check = i < prefix.length ? prefix[i] : items;
        const error = check?.(value[i], pointer(path, i));
        if (error) return error;
      }
      return undefined;
    });
  }
  if (Array.isArray(schema.allOf)) for (const sub of schema.allOf) {
    const check = checkFor(sub);
    if (check) checks.push(check);
  }
  if (checks.length === 0) return undefined;
  return (value, path) => {
    for (const check of checks) {
      const error = check(value, path);
      if (error) return error;
    }
    return undefined;
  };
}

/** The decimal-number check of one schema (exported for the tests); undefined when the schema admits no number. */
export function decimalNumberCheck(schema: unknown): ((value: unknown) => FastifySchemaValidationError | undefined) | undefined {
  const check = checkFor(schema);
  // The whole part absent: Fastify validates `null`, which is not a number given by the client.
  return check && ((value) => (value === null ? undefined : check(value, '')));
}

/** A compiled validator as Fastify calls it (Ajv's, with the `schemaEnv` that lets it replace coerced values). */
export interface Validator {
  (data: unknown, context?: unknown): unknown;
  errors?: FastifySchemaValidationError[] | null;
  schemaEnv?: unknown;
}

/** A route validator compiler as Fastify calls it. */
export type ValidatorCompiler = (route: { schema: unknown; method: string; url: string; httpPart?: string }) => Validator;
/** Builds validator compilers (Ajv's, through @fastify/ajv-compiler). */
export type ValidatorFactory = (externalSchemas: Record<string, unknown>, options: unknown) => ValidatorCompiler;

/** Wraps validators of `factory` (Fastify's default, Ajv) with the decimal-number check. */
export function withDecimalNumbers(factory: ValidatorFactory): ValidatorFactory {
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      const validate = compile(route);
      const check = decimalNumberCheck(route.schema);
      if (check === undefined) return validate;
      const guarded: Validator = (data, context) => {
        const error = check(data);
        if (error) {
          guarded.errors = [error];
          return false;
        }
        const result = validate(data, context);
        guarded.errors = validate.errors ?? null;
        return result;
      };
      if (validate.schemaEnv !== undefined) guarded.schemaEnv = validate.schemaEnv;
      return guarded;
    };
  };
}

/** Fastify's `schemaController`: its default Ajv validators, each behind the decimal-number check. */
export function decimalNumbersSchemaController() {
  const ajvFactory = AjvCompiler() as unknown as ValidatorFactory;
  return { compilersFactory: { buildValidator: withDecimalNumbers(ajvFactory) as never } };
}
