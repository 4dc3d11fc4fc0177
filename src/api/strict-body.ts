/**
 * Validation of JSON request bodies without the type coercion query strings need. The application's validator
 * coerces (a query string has only text), which in a body would accept `{"address": 12}` as the address "12",
 * `{"lang": ["fr"]}` as "fr" or `{"radius": true}` as 1. A route that takes a JSON body validates it with this compiler
 * instead: values must have the schema's JSON type, with one exception the whole API shares, that a number field also
 * takes a decimal string (`"50.85"`; docs/api.md, numbers). The decimal-number check (decimal-numbers.ts) runs first,
 * so a non-decimal string or a non-finite number is refused before anything is converted. Unknown fields are
 * refused when the schema says so (`additionalProperties: false`), never silently dropped.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import { isDecimalNumber, withDecimalNumbers, type Validator, type ValidatorCompiler, type ValidatorFactory } from './decimal-numbers.js';

/** Ajv options for bodies: no coercion, no removal of unknown fields, defaults filled, stop at the first error. */
const BODY_OPTIONS = { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: false } };
/** The application's options, for the other parts of the same route (path, query, headers). */
const OTHER_OPTIONS = { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true, allErrors: false } };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Names of the top-level properties of `schema` typed number or integer. */
function numericFields(schema: unknown): string[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  return Object.entries(schema.properties)
    .filter(([, sub]) => isObject(sub) && (sub.type === 'number' || sub.type === 'integer'))
    .map(([name]) => name);
}

/** `validate` with decimal strings of number fields turned into numbers first (other strings are left to refuse). */
function withDecimalStrings(validate: Validator, fields: readonly string[]): Validator {
  if (fields.length === 0) return validate;
  const converting: Validator = (data, context) => {
    if (isObject(data)) {
      for (const name of fields) {
        const value = data[name];
        if (typeof value === 'string' && isDecimalNumber(value)) data[name] = Number(value);
      }
    }
    const ok = validate(data, context);
    converting.errors = validate.errors ?? null;
    return ok;
  };
  if (validate.schemaEnv !== undefined) converting.schemaEnv = validate.schemaEnv;
  return converting;
}

/** The validator compiler of a route with a JSON body (set as the route's `validatorCompiler`). */
export function strictBodyValidatorCompiler(): ValidatorCompiler {
  const factory = withDecimalNumbers(AjvCompiler() as unknown as ValidatorFactory);
  const body = factory({}, BODY_OPTIONS);
  const other = factory({}, OTHER_OPTIONS);
  return (route) => {
    if (route.httpPart !== 'body') return other(route);
    // Only strings the decimal check passes are converted before it runs (inside `checked`); any other string
    // reaches it unchanged and is refused.
    const checked = body(route);
    return withDecimalStrings(checked, numericFields(route.schema));
  };
}
