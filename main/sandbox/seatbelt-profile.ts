// macOS's backend of a session's sandbox (DESIGN.md §11 "Sandbox"): the SandboxRules as a Seatbelt
// profile (SBPL) run by `sandbox-exec -p`. Everything is allowed by default (the agent CLIs need the
// system's services: the keychain, fonts, preferences), then denied by kind, then re-allowed for the
// paths listed; a later rule wins over an earlier one, so each deny comes before its re-allows. Paths
// are SBPL string literals with `\` and `"` escaped, and a path holding a control character is
// refused, so no path can end its string and add a rule. Paths must be real paths (/private/tmp, not
// /tmp): Seatbelt matches the path the kernel resolved. Pure: runs in the daemon.
import type { SandboxRules } from './sandbox-rules.js';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** The proxy the `allowlist` mode reaches: the bridge's loopback port and the proxy's unix socket. */
export interface SeatbeltProxy {
  port: number;
  socket: string;
}

/** Devices an agent in a terminal writes: the null device, its terminal and new pseudo-terminals. */
const DEVICE_WRITES = ['(literal "/dev/null")', '(literal "/dev/tty")', '(regex #"^/dev/ttys[0-9]+$")', '(literal "/dev/ptmx")', '(literal "/dev/dtracehelper")', '(subpath "/dev/fd")'];
/**
 * Mach services that make network traffic for the caller: the DNS resolver answers a name with a
 * query of its own, which would carry data past `(deny network*)`.
 */
const RESOLVER_SERVICES = ['com.apple.dnssd.service', 'com.apple.mDNSResponder'];

/** `s` as an SBPL string literal; throws on a control character (no escape of SBPL's is relied on for it). */
export function sbplString(s: string): string {
  if (/[\u0000-\u001f\u007f]/.test(s)) throw new Error(`sandbox path ${JSON.stringify(s)} holds a control character; Seatbelt's profile cannot name it safely`);
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const subpaths = (paths: readonly string[]): string => paths.map((p) => `(subpath ${sbplString(p)})`).join(' ');

/** Whether `p` is `dir` or below it. */
const inside = (p: string, dir: string): boolean => p !== dir && (p.startsWith(dir.endsWith('/') ? dir : `${dir}/`));

/** The profile text for `rules`; `home` is the person's home, `proxy` the allowlist's way out. */
export function seatbeltProfile(rules: SandboxRules, home: string, proxy?: SeatbeltProxy): string {
  const out = ['(version 1)', '(allow default)'];
  out.push("; Writes: only the read-write paths and the terminal's devices.");
  out.push('(deny file-write*)');
  out.push(`(allow file-write* ${[...rules.readWrite.map((p) => `(subpath ${sbplString(p)})`), ...DEVICE_WRITES].join(' ')})`);
  const hidden = [...rules.hidden, ...(rules.home === 'hidden' ? [home] : [])];
  if (hidden.length > 0) {
    out.push('; Hidden: neither read nor written, but for the listed paths inside.');
    out.push(`(deny file-read* file-write* ${subpaths(hidden)})`);
    if (rules.readOnly.length > 0) out.push(`(allow file-read* ${subpaths(rules.readOnly)})`);
    if (rules.readWrite.length > 0) out.push(`(allow file-read* file-write* ${subpaths(rules.readWrite)})`);
  }
  // The nearer path decides, as a bind inside a bind does on Linux: read-only inside read-write, and
  // read-write again inside that.
  if (rules.readOnly.length > 0) {
    out.push('; Read-only, inside a read-write path too.');
    out.push(`(deny file-write* ${subpaths(rules.readOnly)})`);
    const within = rules.readWrite.filter((w) => rules.readOnly.some((r) => inside(w, r)));
    if (within.length > 0) out.push(`(allow file-write* ${subpaths(within)})`);
  }
  if (rules.network !== 'full') {
    out.push('; Network: none of its own.');
    out.push('(deny network*)');
    out.push(`(deny mach-lookup ${RESOLVER_SERVICES.map((n) => `(global-name ${sbplString(n)})`).join(' ')})`);
  }
  if (rules.network === 'allowlist') {
    if (proxy === undefined) throw new Error('the allowlist network mode needs the proxy\'s port and socket');
    if (!Number.isInteger(proxy.port) || proxy.port < 1 || proxy.port > 65_535) throw new Error(`proxy port ${proxy.port} is not a TCP port`);
    out.push('; Allowlist: the bridge on its loopback port, and from it the proxy\'s socket.');
    out.push(`(allow network-bind network-inbound (local ip "localhost:${proxy.port}"))`);
    out.push(`(allow network-outbound (remote ip "localhost:${proxy.port}") (remote unix-socket (path-literal ${sbplString(proxy.socket)})))`);
  }
  out.push('; Signals: only to its own processes.');
  out.push('(deny signal)');
  out.push('(allow signal (target same-sandbox))');
  return `${out.join('\n')}\n`;
}

/** The agent's argv inside the sandbox. */
export function seatbeltArgv(profile: string, argv: readonly string[]): string[] {
  return [SANDBOX_EXEC, '-p', profile, '--', ...argv];
}
