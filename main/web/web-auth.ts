// Who may use the web host (DESIGN.md §11): a random token (256 bits) printed in the URL; the first
// request carrying it gets an HttpOnly, SameSite=Strict cookie and a redirect that drops the token
// from the address bar; every other request needs the cookie. The Host header must name this host
// (no DNS rebinding) and a WebSocket's Origin must be this host's own. Runs in the web host.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** 32 bytes = 256 bits: far beyond guessing, short enough for a URL. */
const TOKEN_BYTES = 32;

export const newToken = (): string => randomBytes(TOKEN_BYTES).toString('base64url');

/** One cookie per port: two web hosts on one machine do not overwrite each other's. */
export const cookieName = (port: number): string => `mori_token_${port}`;

export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cookieHeader(port: number, token: string): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

export function cookieToken(req: IncomingMessage, port: number): string | null {
  const raw = req.headers.cookie;
  if (!raw) return null;
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === cookieName(port)) return part.slice(eq + 1).trim();
  }
  return null;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/**
 * The `host:port` values a request may name in its Host header: the bound address, and its loopback
 * aliases when bound to loopback. Bound to a public address, any Host is accepted (the machine has
 * names we cannot know); the token still guards it.
 */
export function hostAllowed(hostHeader: string | undefined, boundHost: string, port: number): boolean {
  if (!hostHeader) return false;
  if (!isLoopback(boundHost)) return true;
  const names = [...LOOPBACK_NAMES, boundHost.includes(':') ? `[${boundHost}]` : boundHost];
  return names.some((n) => hostHeader === `${n}:${port}`);
}

/** A WebSocket's Origin must be this very host, as the browser reached it. */
export function originAllowed(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  const host = req.headers.host;
  return typeof origin === 'string' && typeof host === 'string' && origin === `http://${host}`;
}
