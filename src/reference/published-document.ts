/**
 * The OpenAPI document as the service publishes it: the one @fastify/swagger generates from the route schemas
 * (src/api/openapi.ts), completed with examples, the licence and `externalDocs` pointing at the documentation site.
 * `/v1/openapi.json` serves it and the reference pages render it.
 */
import type { FastifyInstance } from 'fastify';
import { withExamples } from './examples/openapi-examples.js';
import type { OpenApiDocument } from './openapi-types.js';

/**
 * The service is proprietary (the package is `UNLICENSED`): the licence object says so, and points at the terms in the
 * reference (`#terms`), since a licence without a URL or an SPDX identifier tells a client nothing it can follow.
 */
export const LICENCE_NAME = 'Proprietary (UNLICENSED): all rights reserved';

/**
 * The document as published for `docsUrl`: the generated one with examples, `externalDocs` and problem `type` URIs
 * pointing at the docs. Built once per docs URL (the examples of keyless endpoints are asked from `app` itself).
 */
export function documentPublisher(app: FastifyInstance): (docsUrl: string) => Promise<OpenApiDocument> {
  const published = new Map<string, Promise<OpenApiDocument>>();
  const ask = async (target: string): Promise<unknown> => {
    const res = await app.inject({ method: 'GET', url: target });
    return res.statusCode === 200 ? res.json() : undefined;
  };
  return (docsUrl) => {
    let doc = published.get(docsUrl);
    if (doc === undefined) {
      const generated = app.swagger() as unknown as OpenApiDocument;
      const withDocs: OpenApiDocument = {
        ...generated,
        info: { ...generated.info, license: { name: LICENCE_NAME, url: `${docsUrl}#terms` } },
        externalDocs: { url: docsUrl, description: 'API reference and error catalogue' },
      };
      doc = withExamples(withDocs, docsUrl, ask);
      doc.catch(() => published.delete(docsUrl));
      published.set(docsUrl, doc);
    }
    return doc;
  };
}
