// The reachability probe's effects: resolve a host (DNS) and open a TCP connection to it, then
// close it at once. Cancellable through an AbortSignal, so nothing is left pending after a stop.
// Main process (and `mori up`).
import { promises as dns } from 'node:dns';
import { isIP, connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ProbeTarget } from '../../common/power.js';
import { background } from '../background.js';

export type ProbeStage = 'dns' | 'tcp';

export type TargetResult =
  | { target: ProbeTarget; ok: true; ms: number }
  | { target: ProbeTarget; ok: false; stage: ProbeStage; code: string; ms: number };

/** One round of probes: ok when any target was reachable. */
export interface ProbeOutcome {
  ok: boolean;
  results: TargetResult[];
}

export interface ProbeOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The probe as the reachability monitor calls it; injectable so the decision logic is tested without sockets. */
export type Probe = (targets: readonly ProbeTarget[], options: ProbeOptions) => Promise<ProbeOutcome>;

class StageError extends Error {
  constructor(
    readonly stage: ProbeStage,
    readonly code: string,
  ) {
    super(`${stage} ${code}`);
  }
}

const codeOf = (error: unknown, fallback: string): string =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : fallback;

/**
 * The addresses of a host. Uses a fresh c-ares resolver each time (it picks up the DNS servers of a
 * network joined after wake, and unlike getaddrinfo it can be cancelled). IP literals need no
 * lookup, and `localhost` is loopback by definition (RFC 6761) though DNS servers do not answer it.
 */
async function resolve(host: string, timeoutMs: number, signal: AbortSignal): Promise<string[]> {
  if (isIP(host)) return [host];
  if (host.toLowerCase() === 'localhost') return ['127.0.0.1', '::1'];
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 1 });
  const cancel = (): void => resolver.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    if (addresses.length > 0) return addresses;
    if (signal.aborted) throw new StageError('dns', 'ETIMEDOUT');
    // ENODATA for one family is normal; report the more telling of the two errors.
    const codes = [v4, v6].flatMap((r) => (r.status === 'rejected' ? [codeOf(r.reason, 'EDNS')] : []));
    throw new StageError('dns', codes.find((c) => c !== 'ENODATA') ?? codes[0] ?? 'ENODATA');
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/** Connects to the first IPv4 and the first IPv6 address at once; the first handshake wins. */
function connectAny(addresses: string[], port: number, signal: AbortSignal): Promise<void> {
  const picks = [addresses.find((a) => isIP(a) === 4), addresses.find((a) => isIP(a) === 6)].filter((a): a is string => !!a);
  return new Promise((resolvePromise, reject) => {
    const sockets: Socket[] = [];
    let failures = 0;
    let firstCode: string | null = null;
    let settled = false;
    const finish = (error: StageError | null): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      for (const s of sockets) s.destroy();
      if (error) reject(error);
      else resolvePromise();
    };
    const onAbort = (): void => finish(new StageError('tcp', 'ETIMEDOUT'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    for (const address of picks) {
      const socket = connect({ host: address, port });
      sockets.push(socket);
      socket.once('connect', () => finish(null));
      socket.once('error', (error) => {
        firstCode ??= codeOf(error, 'ECONNFAILED');
        if (++failures === picks.length) finish(new StageError('tcp', firstCode));
      });
    }
  });
}

/** Probes one target: DNS, then a TCP handshake, within `timeoutMs` in all. Never rejects. */
export async function probeTarget(target: ProbeTarget, options: ProbeOptions): Promise<TargetResult> {
  const started = performance.now();
  const deadline = new AbortController();
  const onOuterAbort = (): void => deadline.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted) deadline.abort();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  let stage: ProbeStage = 'dns';
  try {
    const addresses = await resolve(target.host, options.timeoutMs, deadline.signal);
    stage = 'tcp';
    await connectAny(addresses, target.port, deadline.signal);
    return { target, ok: true, ms: performance.now() - started };
  } catch (error) {
    const failed = error instanceof StageError ? error : new StageError(stage, codeOf(error, 'EPROBE'));
    return { target, ok: false, stage: failed.stage, code: failed.code, ms: performance.now() - started };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** Probes all targets at once; resolves as soon as one is reachable (cancelling the rest) or all failed. */
export const probeAny: Probe = (targets, options) => {
  const all = new AbortController();
  const onOuterAbort = (): void => all.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted) all.abort();
  return new Promise<ProbeOutcome>((resolvePromise) => {
    const results: TargetResult[] = [];
    let done = false;
    const finish = (ok: boolean): void => {
      if (done) return;
      done = true;
      options.signal?.removeEventListener('abort', onOuterAbort);
      all.abort();
      resolvePromise({ ok, results: [...results] });
    };
    if (targets.length === 0) return finish(false);
    for (const target of targets) {
      background(probeTarget(target, { timeoutMs: options.timeoutMs, signal: all.signal }).then((result) => {
        if (done) return;
        results.push(result);
        if (result.ok) finish(true);
        else if (results.length === targets.length) finish(false);
      }), `probe of ${target.host}:${target.port}`);
    }
  });
};

/** One clause per failed target, e.g. `api.anthropic.com:443 dns ENOTFOUND; 10.0.0.1:443 tcp ETIMEDOUT`. */
export function describeFailures(results: readonly TargetResult[]): string {
  return results
    .filter((r): r is Extract<TargetResult, { ok: false }> => !r.ok)
    .map((r) => `${r.target.host.includes(':') ? `[${r.target.host}]` : r.target.host}:${r.target.port} ${r.stage} ${r.code}`)
    .join('; ');
}
