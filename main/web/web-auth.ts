// Who may use the web host (DESIGN.md §11). A random launch token (256 bits) is printed in the link's
// fragment; the page exchanges it ONCE, within LAUNCH_TOKEN_TTL_MS, for a session secret (256 bits)
// that only that page holds (sessionStorage) and that each WebSocket sends as its first message. No
// cookie: cookies are not port-scoped, so every other server on 127.0.0.1 would receive one. The
// Host header must name this host (no DNS rebinding) and a WebSocket's or exchange's Origin must be
// this host's own. Runs in the web host.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { fail, ok, type Result } from '../../common/result.js';

/** 32 bytes = 256 bits: far beyond guessing, short enough for a URL. */
const TOKEN_BYTES = 32;
/**
 * How long the printed link can be exchanged: 10 minutes is ample to copy it from a terminal into a
 * browser, and a link found later (scrollback, shell history, a screenshot) opens nothing.
 */
export const LAUNCH_TOKEN_TTL_MS = 10 * 60_000;

export const newToken = (): string => randomBytes(TOKEN_BYTES).toString('base64url');

export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The launch token's one exchange, and the session secret it gave. */
export class WebAuth {
  private launch: string | null;
  private secret: string | null = null;
  private readonly expires: number;

  constructor(
    readonly launchToken: string,
    private readonly now: () => number = Date.now,
    ttlMs = LAUNCH_TOKEN_TTL_MS,
  ) {
    this.launch = launchToken;
    this.expires = now() + ttlMs;
  }

  /** The session secret for the launch token, once; a second exchange, a late one or a wrong token fails. */
  exchange(given: string): Result<string> {
    const launch = this.launch;
    if (launch === null || !sameToken(given, launch)) return fail('usage', 'not authorized: this link was already used or is not valid (run `mori ui` for a fresh one)');
    this.launch = null;
    if (this.now() > this.expires) return fail('usage', 'not authorized: this link has expired (run `mori ui` for a fresh one)');
    this.secret = newToken();
    return ok(this.secret);
  }

  /** Whether the link was exchanged (or expired): it is worthless from now on. */
  get spent(): boolean {
    return this.launch === null || this.now() > this.expires;
  }

  secretValid(given: string): boolean {
    return this.secret !== null && sameToken(given, this.secret);
  }
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/**
 * The `host:port` values a request may name in its Host header: the bound address, and its loopback
 * aliases when bound to loopback. Bound to a public address, any Host is accepted (the machine has
 * names we cannot know); the secret still guards it.
 */
export function hostAllowed(hostHeader: string | undefined, boundHost: string, port: number): boolean {
  if (!hostHeader) return false;
  if (!isLoopback(boundHost)) return true;
  const names = [...LOOPBACK_NAMES, boundHost.includes(':') ? `[${boundHost}]` : boundHost];
  return names.some((n) => hostHeader === `${n}:${port}`);
}

/** A WebSocket's or an exchange's Origin must be this very host, as the browser reached it (over `scheme`). */
export function originAllowed(req: IncomingMessage, scheme: 'http' | 'https'): boolean {
  const origin = req.headers.origin;
  const host = req.headers.host;
  return typeof origin === 'string' && typeof host === 'string' && origin === `${scheme}://${host}`;
}
