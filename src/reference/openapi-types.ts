/**
 * The parts of an OpenAPI 3.1 document the reference pages read. The document is the one @fastify/swagger generates
 * from the route schemas (schemas inline, no `$ref`), so these types describe what it holds, not all of OpenAPI.
 */

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it); only the keywords the pages render are named. */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly format?: string;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly default?: unknown;
  readonly example?: unknown;
  readonly examples?: readonly unknown[];
  readonly items?: JsonSchema;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly patternProperties?: Readonly<Record<string, JsonSchema>>;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
}

/** A parameter of an operation. */
export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header' | 'cookie';
  readonly required?: boolean;
  readonly description?: string;
  readonly schema?: JsonSchema;
  readonly example?: unknown;
}

/** A media type entry of a response. */
export interface OpenApiMedia {
  readonly schema?: JsonSchema;
  readonly example?: unknown;
}

/** A response of an operation, by status. */
export interface OpenApiResponse {
  readonly description?: string;
  readonly headers?: Readonly<Record<string, { readonly description?: string; readonly schema?: JsonSchema }>>;
  readonly content?: Readonly<Record<string, OpenApiMedia>>;
}

/** A code sample (`x-codeSamples`, the convention API reference renderers read). */
export interface CodeSample {
  readonly lang: string;
  readonly label?: string;
  readonly source: string;
}

/** The request body of an operation. */
export interface OpenApiRequestBody {
  readonly description?: string;
  readonly required?: boolean;
  readonly content?: Readonly<Record<string, OpenApiMedia>>;
}

/** One operation (method on a path). */
export interface OpenApiOperation {
  /** The stable name client generators give the operation's method. */
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly parameters?: readonly OpenApiParameter[];
  readonly requestBody?: OpenApiRequestBody;
  readonly responses: Readonly<Record<string, OpenApiResponse>>;
  readonly 'x-codeSamples'?: readonly CodeSample[];
}

/** The document. */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: {
    readonly title: string;
    readonly version: string;
    readonly description?: string;
    readonly license?: { readonly name: string; readonly url?: string };
  };
  readonly tags?: readonly { readonly name: string; readonly description?: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, OpenApiOperation>>>>;
  readonly components?: { readonly securitySchemes?: Readonly<Record<string, unknown>> };
  readonly externalDocs?: { readonly url: string; readonly description?: string };
}

/** HTTP methods in the order the pages list them. */
export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** One operation with its method and path, in document order. */
export interface OperationEntry {
  readonly method: string;
  readonly path: string;
  readonly op: OpenApiOperation;
  /** The page anchor, e.g. `get-v1-historical-stats`. */
  readonly id: string;
}

/** Every operation of the document, paths in document order, methods in `METHODS` order. */
export function operations(doc: OpenApiDocument): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op !== undefined) out.push({ method, path, op, id: operationId(method, path) });
    }
  }
  return out;
}

/** The anchor of an operation: method and path in lower case, every run of other characters a dash. */
export function operationId(method: string, path: string): string {
  return `${method}-${path}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** Whether the operation needs a key (every security alternative names a scheme). */
export function needsKey(op: OpenApiOperation): boolean {
  return op.security !== undefined && op.security.length > 0 && op.security.every((s) => Object.keys(s).length > 0);
}

/** Whether the operation accepts an optional key (one security alternative is empty). */
export function acceptsKey(op: OpenApiOperation): boolean {
  return op.security !== undefined && op.security.some((s) => Object.keys(s).length > 0);
}
