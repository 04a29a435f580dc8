// Which host:port pairs the reachability probe connects to: each active agent's API hosts (its
// profile's probeHosts), or the HTTPS proxy the agents go through, or
// `MORI_PROBE=host:port[,host:port]` (tests; `none` turns the probes off). Pure: the environment is
// passed in.
// Main process (and `mori up`).
import type { ProbeTarget } from '../../common/power.js';
import { fail, ok, type Result } from '../../common/result.js';
import type { ProfileName } from '../../common/session.js';
import { PROFILES } from '../agents/profiles.js';

/** Parses `host:port[,host:port]`; an IPv6 host is written in brackets, `[::1]:8080`. */
export function parseProbeTargets(spec: string): Result<ProbeTarget[]> {
  const targets: ProbeTarget[] = [];
  for (const raw of spec.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const m = /^(?:\[([^\]]+)\]|([^:\s[\]]+)):(\d{1,5})$/.exec(item);
    const host = m?.[1] ?? m?.[2];
    const port = Number(m?.[3]);
    if (!m || !host || !Number.isInteger(port) || port < 1 || port > 65_535) {
      return fail('usage', `probe target "${item}" is not host:port (an IPv6 host in brackets: [::1]:443)`);
    }
    targets.push({ host, port });
  }
  if (targets.length === 0) return fail('usage', 'no probe target given: expected host:port[,host:port]');
  return ok(targets);
}

/** The proxy's host:port from an `https_proxy`-style URL, or null when there is none or it is unreadable. */
export function proxyTarget(env: Readonly<Record<string, string | undefined>>): ProbeTarget | null {
  const raw = env.HTTPS_PROXY ?? env.https_proxy ?? env.ALL_PROXY ?? env.all_proxy;
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.includes('://') ? raw : `http://${raw}`);
  } catch {
    return null;
  }
  // The default port of the proxy's own scheme (http 80, https 443, socks 1080).
  const defaults: Record<string, number> = { 'http:': 80, 'https:': 443, 'socks:': 1080, 'socks5:': 1080, 'socks5h:': 1080 };
  const port = url.port ? Number(url.port) : defaults[url.protocol];
  if (!url.hostname || port === undefined) return null;
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}

/**
 * The targets for a set of active agents. `MORI_PROBE` overrides everything; with an HTTPS proxy
 * set, the agents reach their APIs only through it, so the proxy is what must be reachable.
 * An empty list means no active agent needs the network.
 */
export function probeTargetsFor(
  profiles: Iterable<ProfileName>,
  env: Readonly<Record<string, string | undefined>>,
): Result<ProbeTarget[]> {
  const override = env.MORI_PROBE?.trim();
  // `none`: probe nothing, the network is taken as always there (no network interruptions).
  if (override === 'none') return ok([]);
  if (override) return parseProbeTargets(override);
  const wanted = [...new Set(profiles)].flatMap((p) => PROFILES[p].probeHosts);
  if (wanted.length === 0) return ok([]);
  const proxy = proxyTarget(env);
  if (proxy) return ok([proxy]);
  const seen = new Set<string>();
  return ok(wanted.filter((t) => !seen.has(`${t.host}:${t.port}`) && seen.add(`${t.host}:${t.port}`)));
}
