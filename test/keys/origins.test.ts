import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { normalizeOriginEntry, originAllowed } from '../../src/keys/origins.js';

describe('origin allowlist entries', () => {
  it('normalises case, trailing slash and default ports', () => {
    expect(normalizeOriginEntry('HTTPS://App.Example.org/')).toBe('https://app.example.org');
    expect(normalizeOriginEntry('https://app.example.org:443')).toBe('https://app.example.org');
    expect(normalizeOriginEntry('http://localhost:5173')).toBe('http://localhost:5173');
    expect(normalizeOriginEntry('https://*.Example.org')).toBe('https://*.example.org');
    expect(normalizeOriginEntry('https://*.example.org:443')).toBe('https://*.example.org');
    expect(normalizeOriginEntry('https://*.example.org:8443')).toBe('https://*.example.org:8443');
  });

  it('rejects anything that is not an origin', () => {
    for (const bad of ['example.org', 'ftp://example.org', 'https://example.org/path', 'https://example.org?q=1', 'https://a.*.org', '*', 'https://*', 'https://user@example.org']) {
      expect(() => normalizeOriginEntry(bad)).toThrow(ValidationError);
    }
  });
});

describe('origin matching', () => {
  const allow = ['https://app.example.org', 'https://*.maps.example.com', 'http://localhost:5173'];

  it('matches exact origins only', () => {
    expect(originAllowed('https://app.example.org', allow)).toBe(true);
    expect(originAllowed('https://APP.example.org', allow)).toBe(true);
    expect(originAllowed('http://app.example.org', allow)).toBe(false);
    expect(originAllowed('https://app.example.org:8443', allow)).toBe(false);
    expect(originAllowed('https://evil-app.example.org', allow)).toBe(false);
    expect(originAllowed('http://localhost:5173', allow)).toBe(true);
    expect(originAllowed('http://localhost:5174', allow)).toBe(false);
  });

  it('matches wildcard subdomains at any depth, not the bare domain', () => {
    expect(originAllowed('https://a.maps.example.com', allow)).toBe(true);
    expect(originAllowed('https://a.b.maps.example.com', allow)).toBe(true);
    expect(originAllowed('https://maps.example.com', allow)).toBe(false);
    expect(originAllowed('https://evilmaps.example.com', allow)).toBe(false);
    expect(originAllowed('http://a.maps.example.com', allow)).toBe(false);
  });

  it('never matches null or malformed origins', () => {
    expect(originAllowed('null', allow)).toBe(false);
    expect(originAllowed('', allow)).toBe(false);
    expect(originAllowed('not a url', allow)).toBe(false);
    expect(originAllowed('https://app.example.org', [])).toBe(false);
  });
});
