import { describe, expect, it } from 'vitest';
import { isAllowedHost, isAllowedOrigin, tokenMatches } from './guard';

// The browser-mode host's three gates, one input at a time (host.test.ts drives them through
// real sockets; these pin each rule so a one-character change to a gate fails a test).
describe('isAllowedHost (DNS rebinding)', () => {
  it('takes the loopback names on our own port, in any case', () => {
    expect(isAllowedHost('127.0.0.1:4100', 4100)).toBe(true);
    expect(isAllowedHost('localhost:4100', 4100)).toBe(true);
    expect(isAllowedHost('LOCALHOST:4100', 4100)).toBe(true);
    expect(isAllowedHost('[::1]:4100', 4100)).toBe(true);
    expect(isAllowedHost(' 127.0.0.1:4100 ', 4100)).toBe(true);
  });

  it('refuses another port, no port, another name and malformed values', () => {
    expect(isAllowedHost('127.0.0.1:4101', 4100)).toBe(false);
    expect(isAllowedHost('127.0.0.1:41000', 4100)).toBe(false);
    expect(isAllowedHost('127.0.0.1', 4100)).toBe(false);
    expect(isAllowedHost('127.0.0.1', 0)).toBe(false);
    expect(isAllowedHost('evil.example:4100', 4100)).toBe(false);
    expect(isAllowedHost('127.0.0.2:4100', 4100)).toBe(false);
    expect(isAllowedHost('127.0.0.1.evil.example:4100', 4100)).toBe(false);
    expect(isAllowedHost('[::2]:4100', 4100)).toBe(false);
    expect(isAllowedHost('x127.0.0.1:4100', 4100)).toBe(false);
    expect(isAllowedHost('evil.example:127.0.0.1:4100', 4100)).toBe(false);
    expect(isAllowedHost('x[::1]:4100', 4100)).toBe(false);
    expect(isAllowedHost('127.0.0.1:4100x', 4100)).toBe(false);
    expect(isAllowedHost('127.0.0.1:4100:4100', 4100)).toBe(false);
    expect(isAllowedHost('127.0.0.1:123456', 123456)).toBe(false);
    expect(isAllowedHost('user@127.0.0.1:4100', 4100)).toBe(false);
    expect(isAllowedHost('', 4100)).toBe(false);
    expect(isAllowedHost(undefined, 4100)).toBe(false);
  });
});

describe('isAllowedOrigin (WebSocket from a page)', () => {
  it('takes no Origin (a non-browser client) and our own http loopback origin', () => {
    expect(isAllowedOrigin(undefined, 4100)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:4100', 4100)).toBe(true);
    expect(isAllowedOrigin('http://localhost:4100', 4100)).toBe(true);
    expect(isAllowedOrigin('http://[::1]:4100', 4100)).toBe(true);
  });

  it('refuses a loopback origin on another port: another local app is another origin', () => {
    expect(isAllowedOrigin('http://127.0.0.1:4101', 4100)).toBe(false);
    expect(isAllowedOrigin('http://localhost:80', 4100)).toBe(false);
    expect(isAllowedOrigin('http://localhost', 4100)).toBe(false);
  });

  it('refuses other schemes, other hosts, empty and unparsable origins', () => {
    expect(isAllowedOrigin('https://127.0.0.1:4100', 4100)).toBe(false);
    expect(isAllowedOrigin('file://127.0.0.1:4100', 4100)).toBe(false);
    expect(isAllowedOrigin('http://evil.example:4100', 4100)).toBe(false);
    expect(isAllowedOrigin('null', 4100)).toBe(false);
    expect(isAllowedOrigin('', 4100)).toBe(false);
  });
});

describe('tokenMatches', () => {
  it('takes the exact token only', () => {
    expect(tokenMatches('s3cret-token', 's3cret-token')).toBe(true);
    expect(tokenMatches('s3cret-tokeX', 's3cret-token')).toBe(false);
    expect(tokenMatches('s3cret-token-', 's3cret-token')).toBe(false);
    expect(tokenMatches('s3cret', 's3cret-token')).toBe(false);
  });

  it('refuses a missing or empty token without throwing', () => {
    expect(tokenMatches(null, 's3cret-token')).toBe(false);
    expect(tokenMatches('', 's3cret-token')).toBe(false);
    expect(tokenMatches('', '')).toBe(false);
  });
});
