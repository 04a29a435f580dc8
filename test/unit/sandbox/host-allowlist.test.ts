// The allowlist's patterns and their matching (main/sandbox/host-allowlist.ts), and the proxy
// variables an allowlist launch gets (main/sandbox/proxy-env.ts).
import { describe, expect, it } from 'vitest';
import { hostAllowed, parseHostPatterns, splitHostPort } from '../../../main/sandbox/host-allowlist.js';
import { bridgeArgv, proxyEnv } from '../../../main/sandbox/proxy-env.js';

const allows = (patterns: string[], target: string, standardPort = 443): boolean => {
  const p = parseHostPatterns(patterns);
  if (p instanceof Error) throw p;
  const t = splitHostPort(target);
  if (t === null) throw new Error(`bad target ${target}`);
  return hostAllowed(p, t.host, t.port ?? standardPort, standardPort);
};

describe('the host allowlist', () => {
  it('passes a listed host on its standard port only, unless a port is listed', () => {
    expect(allows(['api.anthropic.com'], 'api.anthropic.com:443')).toBe(true);
    expect(allows(['api.anthropic.com'], 'API.Anthropic.com.:443')).toBe(true);
    expect(allows(['api.anthropic.com'], 'api.anthropic.com:8443')).toBe(false);
    expect(allows(['api.anthropic.com'], 'api.anthropic.com', 80)).toBe(true);
    expect(allows(['127.0.0.1:8123'], '127.0.0.1:8123')).toBe(true);
    expect(allows(['127.0.0.1:8123'], '127.0.0.1:443')).toBe(false);
    expect(allows(['[::1]:8123'], '[::1]:8123')).toBe(true);
  });

  it('passes names below a *.domain, not the domain itself nor a name merely ending alike', () => {
    expect(allows(['*.openai.com'], 'api.openai.com:443')).toBe(true);
    expect(allows(['*.openai.com'], 'a.b.openai.com:443')).toBe(true);
    expect(allows(['*.openai.com'], 'openai.com:443')).toBe(false);
    expect(allows(['*.openai.com'], 'evilopenai.com:443')).toBe(false);
    expect(allows(['api.openai.com'], 'api.openai.com.evil.net:443')).toBe(false);
  });

  it('refuses other spellings of a listed address and names no host it cannot parse', () => {
    expect(allows(['127.0.0.1:80'], '2130706433:80')).toBe(false);
    expect(allows(['localhost:80'], '127.0.0.1:80')).toBe(false);
    expect(splitHostPort('[fe80::1%eth0]:443')).toBeNull();
    expect(splitHostPort('a b:443')).toBeNull();
    expect(splitHostPort('host:99999')).toBeNull();
    expect(splitHostPort('user@host:443')).toBeNull();
    const bad = parseHostPatterns(['api.example.com', 'http://x/']);
    expect(bad).toBeInstanceOf(Error);
    expect((bad as Error).message).toMatch(/"http:\/\/x\/"/);
  });
});

describe('the proxy variables and the bridge argv', () => {
  it('points every variable at the bridge and leaves loopback direct only when no loopback host is allowed', () => {
    const env = proxyEnv(3128, ['api.anthropic.com']);
    for (const k of ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy']) expect(env[k]).toBe('http://127.0.0.1:3128');
    expect(env['NO_PROXY']).toBe('localhost,127.0.0.1,::1');
    const stand = proxyEnv(3128, ['api.anthropic.com', '127.0.0.1:8123']);
    expect(stand['NO_PROXY']).toBe('');
    expect(stand['no_proxy']).toBe('');
    expect(() => proxyEnv(3128, ['not a host'])).toThrow(/"not a host"/);
  });

  it('puts the bridge before the agent, with the Node binary\'s own variables first', () => {
    expect(bridgeArgv({ node: '/usr/bin/node', bridge: '/h/proxy-bridge.mjs', port: 3128, socket: '/s.sock' }, ['claude', '--resume', 'x'])).toEqual(['/usr/bin/node', '/h/proxy-bridge.mjs', '3128', '/s.sock', '--', 'claude', '--resume', 'x']);
    expect(bridgeArgv({ node: '/app/mori', nodeEnv: { ELECTRON_RUN_AS_NODE: '1' }, bridge: '/b.mjs', port: 1, socket: '/s' }, ['codex'])).toEqual(['env', 'ELECTRON_RUN_AS_NODE=1', '/app/mori', '/b.mjs', '1', '/s', '--', 'codex']);
  });
});
