// The `allowlist` network mode's rule (DESIGN.md §11 "Sandbox"): which host and port a sandboxed
// session may reach through its proxy. A pattern is `host`, `*.domain` (any name below the domain,
// not the domain itself) or an IP literal (`[::1]` for IPv6), each with an optional `:port`; without
// one only the request's standard port passes (443 for CONNECT, 80 for plain http). Names are
// compared exactly (lowercase, no trailing dot) and the proxy connects to the very string it
// compared, so no spelling of an address reaches another. Pure: runs in the proxy's process and the daemon.

export interface HostPattern {
  /** A name, an IPv4 literal or an IPv6 literal without brackets, lowercase. */
  host: string;
  /** True for `*.domain`: `host` is the domain and only names below it pass. */
  subdomains: boolean;
  /** Null: the request's standard port. */
  port: number | null;
}

/** A DNS name or IPv4 literal: letters, digits, hyphens and dots, as the proxy will resolve them. */
const NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;
/** An IPv6 literal's characters (no zone id: `%` would name an interface). */
const IPV6 = /^[0-9a-f:.]+$/;
/** TCP's port range. */
const MAX_PORT = 65_535;

/** A host and port as a request names them: `host:port`, `[v6]:port`, or without the port. */
export function splitHostPort(text: string): { host: string; port: number | null } | null {
  const m = /^(?:\[([^\]]*)\]|([^:[\]]*))(?::(\d{1,5}))?$/.exec(text);
  if (m === null) return null;
  const port = m[3] === undefined ? null : Number(m[3]);
  if (port !== null && (port < 1 || port > MAX_PORT)) return null;
  const host = normalHost(m[1] ?? m[2] ?? '', m[1] !== undefined);
  return host === null ? null : { host, port };
}

/** Lowercase without a trailing dot; null when it is neither a name, an IPv4 nor (bracketed) an IPv6 literal. */
function normalHost(raw: string, bracketed: boolean): string | null {
  const host = raw.toLowerCase().replace(/\.$/, '');
  if (bracketed) return IPV6.test(host) && host.includes(':') ? host : null;
  return NAME.test(host) ? host : null;
}

/** One pattern of `allowedHosts`; an error naming it when it is not one. */
export function parseHostPattern(text: string): HostPattern | Error {
  const subdomains = text.startsWith('*.');
  const parsed = splitHostPort(subdomains ? text.slice(2) : text);
  if (parsed === null) return new Error(`allowed host "${text}" is not a host, *.domain or IP literal with an optional :port`);
  return { host: parsed.host, subdomains, port: parsed.port };
}

/** Every pattern parsed, or the first error. */
export function parseHostPatterns(texts: readonly string[]): HostPattern[] | Error {
  const out: HostPattern[] = [];
  for (const t of texts) {
    const p = parseHostPattern(t);
    if (p instanceof Error) return p;
    out.push(p);
  }
  return out;
}

/** Whether `host` (normalised as splitHostPort leaves it) on `port` passes, `standardPort` standing for a pattern's missing port. */
export function hostAllowed(patterns: readonly HostPattern[], host: string, port: number, standardPort: number): boolean {
  return patterns.some((p) => (p.port ?? standardPort) === port && (p.subdomains ? host.endsWith(`.${p.host}`) : host === p.host));
}

/** The host as a URL or CONNECT line writes it: IPv6 in brackets. */
export const hostWord = (host: string): string => (host.includes(':') ? `[${host}]` : host);
