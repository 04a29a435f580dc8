// The `allowlist` network of a sandboxed launch (DESIGN.md §11 "Sandbox: the allowlist proxy"): which
// hosts the session's proxy passes, the proxy itself (one detached process per session, started or
// kept at each launch, stopped when its agent ends), and what the launch adds inside the sandbox: the
// proxy's dir and the bridge read-only, the bridge in front of the agent's argv, the proxy variables.
// Runs in the supervisor's process.
import { realpathSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fail, ok, type Result } from '../../../common/result.js';
import type { AgentProfile, ApiHost, Env } from '../../agents/profile.js';
import { hooksDir } from '../../agents/hooks/report-script.js';
import { hostWord, parseHostPatterns } from '../../sandbox/host-allowlist.js';
import { ensureNetProxy, ownLaunch, sessionNetProxyDir, stopNetProxy, type ProxyLaunch } from '../../sandbox/net-proxy-process.js';
import type { NetProxyState } from '../../sandbox/net-proxy-state.js';
import { ensureProxyBridge } from '../../sandbox/proxy-bridge.js';
import { bridgeArgv, proxyEnv } from '../../sandbox/proxy-env.js';

/**
 * The bridge's port inside a Linux sandbox: the sandbox has a network namespace of its own, where
 * nothing else listens, so a fixed port; HTTP proxies' customary one.
 */
export const BRIDGE_PORT = 3128;

/** A variable naming an API's base URL (ANTHROPIC_BASE_URL, OPENAI_BASE_URL, GOOGLE_GEMINI_BASE_URL…). */
const BASE_URL_VAR = /_BASE_URL$/;

const hostPort = (h: ApiHost): string => `${hostWord(h.host)}:${h.port}`;

/** The host of an http(s) URL as an allowlist pattern with its port; null for anything else. */
function urlHost(text: string): string | null {
  try {
    const u = new URL(text);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    const host = u.hostname.replace(/^\[|\]$/g, '');
    return hostPort({ host, port: u.port !== '' ? Number(u.port) : u.protocol === 'http:' ? 80 : 443 });
  } catch {
    return null;
  }
}

/**
 * The hosts a session's proxy passes: its agent's API hosts (the profile's own, and those its
 * environment names), every API base URL the person set in the launch's environment (an agent
 * pointed at a gateway or a local model must reach it), and the settings' own list.
 */
export function allowlistHosts(profile: Pick<AgentProfile, 'probeHosts' | 'apiHosts'>, settingsHosts: readonly string[], env: Env): string[] {
  const fromEnv = Object.entries(env)
    .filter(([k, v]) => BASE_URL_VAR.test(k) && v !== undefined && v !== '')
    .map(([, v]) => urlHost(v ?? ''))
    .filter((h): h is string => h !== null);
  return [...new Set([...profile.probeHosts.map(hostPort), ...profile.apiHosts(env).map(hostPort), ...fromEnv, ...settingsHosts])];
}

/**
 * The proxies of a daemon's sessions. Starting and stopping one session's proxy are done one after
 * the other, so a relaunch right after its agent's exit waits for the old proxy's stop.
 */
export class SessionNetProxies {
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly moriHome: string,
    private readonly launch: ProxyLaunch = ownLaunch(),
  ) {}

  ensure(sessionId: string, allowedHosts: string[]): Promise<Result<NetProxyState>> {
    return this.serial(sessionId, () => ensureNetProxy({ dir: sessionNetProxyDir(this.moriHome, sessionId), allowedHosts, launch: this.launch }));
  }

  /** Stops the session's proxy if one runs (none: nothing is done). */
  stop(sessionId: string): Promise<void> {
    return this.serial(sessionId, () => stopNetProxy(sessionNetProxyDir(this.moriHome, sessionId)));
  }

  private serial<T>(id: string, run: () => Promise<T>): Promise<T> {
    const next = (this.pending.get(id) ?? Promise.resolve()).catch(() => undefined).then(run);
    this.pending.set(id, next);
    next
      .finally(() => {
        if (this.pending.get(id) === next) this.pending.delete(id);
      })
      .catch(() => undefined);
    return next;
  }
}

/** What an allowlist launch adds to the sandbox and the agent's command. */
export interface AllowlistLaunch {
  /** Bound read-only: the proxy's dir (its socket), the bridge, the Node binary's dir. */
  readOnly: string[];
  argv: string[];
  env: Record<string, string>;
  proxy: { port: number; socket: string };
}

export interface AllowlistRequest {
  sessionId: string;
  moriHome: string;
  hosts: string[];
  argv: readonly string[];
  /** Linux: the sandbox's own loopback; elsewhere the loopback is shared and a free port is taken. */
  sharedLoopback: boolean;
  proxies: SessionNetProxies;
}

/** A free port on the host's loopback (macOS: the sandbox shares it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts (or keeps) the session's proxy and puts the bridge in front of the agent. */
export async function allowlistLaunch(r: AllowlistRequest): Promise<Result<AllowlistLaunch>> {
  const patterns = parseHostPatterns(r.hosts);
  if (patterns instanceof Error) return fail('failed', `settings.json sandbox.allowedHosts: ${patterns.message}`);
  const proxy = await r.proxies.ensure(r.sessionId, r.hosts);
  if (!proxy.ok) return proxy;
  const bridge = ensureProxyBridge(hooksDir(r.moriHome));
  const port = r.sharedLoopback ? await freePort() : BRIDGE_PORT;
  const node = realpathSync(process.execPath);
  const nodeEnv = process.versions['electron'] !== undefined ? { ELECTRON_RUN_AS_NODE: '1' } : undefined;
  return ok({
    readOnly: [path.dirname(proxy.value.socket), bridge, path.dirname(node)],
    argv: bridgeArgv({ node, ...(nodeEnv ? { nodeEnv } : {}), bridge, port, socket: proxy.value.socket }, r.argv),
    env: proxyEnv(port, r.hosts),
    proxy: { port, socket: proxy.value.socket },
  });
}
