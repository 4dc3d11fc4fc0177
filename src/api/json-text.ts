/**
 * Sending JSON that is already text (cached envelope bytes, a body an ETag was computed over). The route's response
 * schema still documents the shape; the text is sent as is, without re-serialisation.
 */
import type { FastifyReply } from 'fastify';

/** Sends `body` (JSON text) with `application/json`; accepts a route's typed reply. */
export function sendJsonText(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}
