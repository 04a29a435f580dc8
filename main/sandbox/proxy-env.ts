// What an `allowlist` launch adds to the agent's command and environment (DESIGN.md §11 "Sandbox"):
// the bridge in front of the agent's argv, and the proxy variables every agent CLI reads (curl's and
// Go's lowercase ones too) pointing at the bridge's loopback port. Pure: runs in the daemon.
import { parseHostPatterns } from './host-allowlist.js';

/** Loopback names a client may skip the proxy for. */
const LOOPBACK = ['localhost', '127.0.0.1', '::1'];
const LOOPBACK_PATTERN = /^(localhost|127(\.\d+){3}|::1)$/;

/**
 * The proxy variables for a bridge on 127.0.0.1:<port>. Loopback goes direct (the agent's own dev
 * servers in its sandbox) unless a loopback host is allowed: then it too goes through the proxy,
 * which is how a server on the person's loopback (a stand-in, a local model) is reached.
 */
export function proxyEnv(port: number, allowedHosts: readonly string[]): Record<string, string> {
  const patterns = parseHostPatterns(allowedHosts);
  if (patterns instanceof Error) throw patterns;
  const url = `http://127.0.0.1:${port}`;
  const noProxy = patterns.some((p) => !p.subdomains && LOOPBACK_PATTERN.test(p.host)) ? '' : LOOPBACK.join(',');
  return { HTTPS_PROXY: url, HTTP_PROXY: url, https_proxy: url, http_proxy: url, NO_PROXY: noProxy, no_proxy: noProxy };
}

export interface BridgeCommand {
  /** The Node binary visible inside the sandbox (the daemon's own, bound read-only). */
  node: string;
  /** Extra variables the Node binary needs (ELECTRON_RUN_AS_NODE under Electron; the bridge drops it for the agent). */
  nodeEnv?: Record<string, string>;
  /** The bridge script's path inside the sandbox (proxy-bridge.ts). */
  bridge: string;
  port: number;
  /** The proxy's socket's path inside the sandbox. */
  socket: string;
}

/** The agent's argv behind the bridge: `[env K=V] node bridge <port> <socket> -- argv...`. */
export function bridgeArgv(b: BridgeCommand, argv: readonly string[]): string[] {
  const env = Object.entries(b.nodeEnv ?? {}).map(([k, v]) => `${k}=${v}`);
  return [...(env.length > 0 ? ['env', ...env] : []), b.node, b.bridge, String(b.port), b.socket, '--', ...argv];
}
