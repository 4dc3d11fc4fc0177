import { describe, expect, it } from 'vitest';
import { checkingIntervalMs, clientErrorProblem } from '../../src/api/http-server.js';

describe('the HTTP server', () => {
  it('answers each kind of parser error and time-out as HTTP says', () => {
    expect(clientErrorProblem('ERR_HTTP_REQUEST_TIMEOUT').code).toBe('request_timeout');
    expect(clientErrorProblem('HPE_HEADER_OVERFLOW').code).toBe('headers_too_large');
    expect(clientErrorProblem('HPE_CHUNK_EXTENSIONS_OVERFLOW').code).toBe('payload_too_large');
    for (const code of ['HPE_INVALID_METHOD', 'HPE_INVALID_HEADER_TOKEN', 'HPE_UNEXPECTED_CONTENT_LENGTH', undefined]) {
      expect(clientErrorProblem(code).code).toBe('validation_error');
    }
  });

  it('checks for requests past their time-out often enough: a quarter of the shorter one, at most each second', () => {
    expect(checkingIntervalMs({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000 })).toBe(1_000);
    expect(checkingIntervalMs({ headersMs: 200, requestMs: 400, keepAliveMs: 1_000 })).toBe(50);
    expect(checkingIntervalMs({ headersMs: 1, requestMs: 1, keepAliveMs: 1 })).toBe(1);
  });
});
