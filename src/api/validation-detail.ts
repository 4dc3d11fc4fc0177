/**
 * Turns the schema validator's error list into one clear sentence for a problem `detail`, naming the parameter and the
 * rule it broke, e.g. "Query parameter 'radius' must be <= 50." A name can be the client's (a body's property), so it
 * is quoted with `quoteInput`; the rules come from the schemas and never repeat the value given.
 */
import type { FastifySchemaValidationError } from 'fastify';
import { quoteInput } from '../util/quote-input.js';

const PART_NAMES: Record<string, string> = {
  querystring: 'Query parameter',
  params: 'Path parameter',
  body: 'Body field',
  headers: 'Header',
};

function fieldName(error: FastifySchemaValidationError): string | undefined {
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
    return error.params.missingProperty.replace(/^\./, '');
  }
  if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
    return error.params.additionalProperty;
  }
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  return path === '' ? undefined : path;
}

function rule(error: FastifySchemaValidationError): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not accepted';
    case 'enum': {
      const allowed = error.params.allowedValues;
      return Array.isArray(allowed) ? `must be one of ${allowed.map((v) => `'${String(v)}'`).join(', ')}` : 'has a value that is not allowed';
    }
    case 'pattern':
      return `must match the pattern ${String(error.params.pattern)}`;
    case 'minLength':
      return Number(error.params.limit) === 1 ? 'must not be empty' : `must be at least ${String(error.params.limit)} characters`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** One sentence describing the first failure (the validator stops at the first one). */
export function formatValidationErrors(errors: readonly FastifySchemaValidationError[], part?: string): string {
  const first = errors[0];
  if (first === undefined) return 'The request is invalid.';
  const where = PART_NAMES[part ?? ''] ?? 'Parameter';
  const name = fieldName(first);
  if (name === undefined) return part === 'body' ? `The request body ${rule(first)}.` : `The request ${rule(first)}.`;
  return `${where} ${quoteInput(name)} ${rule(first)}.`;
}
