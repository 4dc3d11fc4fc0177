/**
 * RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without a `Host` header and to any request with more
 * than one. Node would refuse the first itself, with an empty 400 (no problem document, no request id); the server
 * leaves it to this hook instead (src/api/http-server.ts), so the answer is a problem document like every other 400.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import { ValidationError } from '../../errors.js';
import { shared } from './shared.js';

/** Why the request's `Host` header is unacceptable, or undefined when it is fine. */
export function hostHeaderProblem(req: IncomingMessage): string | undefined {
  if (req.headers.host === undefined) {
    return req.httpVersionMajor === 1 && req.httpVersionMinor === 0 ? undefined : 'An HTTP/1.1 request must carry a Host header.';
  }
  let count = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') count++;
  return count > 1 ? 'A request must carry exactly one Host header.' : undefined;
}

/** Refuses requests with a missing or repeated `Host` header (400 `validation_error`) before anything else runs. */
export const hostHeaderPlugin: FastifyPluginAsync = shared(async (app) => {
  app.addHook('onRequest', async (request) => {
    const problem = hostHeaderProblem(request.raw);
    if (problem !== undefined) throw new ValidationError(problem);
  });
});
