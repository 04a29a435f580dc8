// The network check kinds (DESIGN.md §7): `tcp` (a connection is accepted), `http` (status < 400;
// redirects followed on the same host only) and `dns` (the name resolves). Each is bounded by its
// timeout and cancellable. Runs in the supervisor and the CLI.
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { joinSignals } from '../joined-signal.js';

export interface ProbeResult {
  status: 'pass' | 'fail' | 'timeout' | 'skipped';
  detail: string;
}

/** A site that redirects more than this is broken or looping; browsers allow ~20, a health URL needs 1 or 2. */
const MAX_REDIRECTS = 5;

/**
 * One signal that fires on the caller's cancel or on the timeout, and says which; clear() when the
 * probe ends leaves nothing in the caller's signal, which a verification's probes all share.
 */
function deadline(timeoutMs: number, signal?: AbortSignal): { signal: AbortSignal; why: () => 'timeout' | 'cancelled' | null; clear: () => void } {
  const timer = new AbortController();
  const t = setTimeout(() => timer.abort(), timeoutMs);
  const joined = signal ? joinSignals(signal, timer.signal) : { signal: timer.signal, release: () => undefined };
  return {
    signal: joined.signal,
    why: () => (signal?.aborted ? 'cancelled' : timer.signal.aborted ? 'timeout' : null),
    clear: () => {
      clearTimeout(t);
      joined.release();
    },
  };
}

function stoppedResult(why: 'timeout' | 'cancelled', timeoutMs: number, what: string): ProbeResult {
  return why === 'timeout' ? { status: 'timeout', detail: `${what} within ${timeoutMs}ms` } : { status: 'skipped', detail: 'cancelled' };
}

function splitHostPort(target: string): { host: string; port: number } {
  const i = target.lastIndexOf(':');
  return { host: target.slice(0, i).replace(/^\[|\]$/g, ''), port: Number(target.slice(i + 1)) };
}

export function probeTcp(target: string, timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult> {
  const { host, port } = splitHostPort(target);
  const d = deadline(timeoutMs, signal);
  if (d.signal.aborted) {
    d.clear();
    return Promise.resolve(stoppedResult(d.why() ?? 'cancelled', timeoutMs, 'no connection'));
  }
  return new Promise((resolve) => {
    // autoSelectFamily: `localhost` may resolve to ::1 first while the server listens on 127.0.0.1 only.
    const socket = net.connect({ host, port, autoSelectFamily: true });
    const end = (r: ProbeResult) => {
      d.clear();
      d.signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(r);
    };
    const onAbort = () => end(stoppedResult(d.why() ?? 'cancelled', timeoutMs, 'no connection'));
    d.signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => end({ status: 'pass', detail: `connected to ${target}` }));
    socket.once('error', (err: NodeJS.ErrnoException) => end({ status: 'fail', detail: `${target}: ${err.code ?? err.message}` }));
  });
}

export async function probeHttp(target: string, timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult> {
  const d = deadline(timeoutMs, signal);
  try {
    let url = new URL(target);
    for (let hop = 0; ; hop++) {
      if (d.signal.aborted) return stoppedResult(d.why() ?? 'cancelled', timeoutMs, 'no response');
      const res = await request(url, d.signal);
      if (!res.ok) {
        const why = d.why();
        return why ? stoppedResult(why, timeoutMs, 'no response') : { status: 'fail', detail: `${url.href}: ${res.error}` };
      }
      const { status, location } = res;
      if (status >= 300 && status < 400 && location) {
        const next = new URL(location, url);
        if (next.host !== url.host || next.protocol !== url.protocol) {
          // Not followed off the host: what answered here is the service, and it answered.
          return { status: 'pass', detail: `HTTP ${status}, redirect to ${next.origin} not followed` };
        }
        if (hop >= MAX_REDIRECTS) return { status: 'fail', detail: `more than ${MAX_REDIRECTS} redirects` };
        url = next;
        continue;
      }
      return status < 400 ? { status: 'pass', detail: `HTTP ${status}` } : { status: 'fail', detail: `HTTP ${status} from ${url.href}` };
    }
  } finally {
    d.clear();
  }
}

type HttpAnswer = { ok: true; status: number; location: string | undefined } | { ok: false; error: string };

// Node 20 connects with autoSelectFamily by default, so `localhost` reaches a server on 127.0.0.1 or ::1.
function request(url: URL, signal: AbortSignal): Promise<HttpAnswer> {
  return new Promise((resolve) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, { method: 'GET', agent: false, signal, headers: { 'user-agent': 'mori-check', accept: '*/*' } }, (res) => {
      resolve({ ok: true, status: res.statusCode ?? 0, location: res.headers.location });
      // Only the status matters: drop the body and the connection.
      res.destroy();
    });
    req.once('error', (err: NodeJS.ErrnoException) => resolve({ ok: false, error: err.code ?? err.message }));
    req.end();
  });
}

export async function probeDns(host: string, timeoutMs: number, signal?: AbortSignal): Promise<ProbeResult> {
  const d = deadline(timeoutMs, signal);
  try {
    // getaddrinfo cannot be cancelled; the race only stops waiting for it.
    const stopped = new Promise<null>((resolve) => {
      if (d.signal.aborted) resolve(null);
      d.signal.addEventListener('abort', () => resolve(null), { once: true });
    });
    const answer = await Promise.race([
      lookup(host, { all: true }).then(
        (addrs) => ({ ok: true as const, addrs: addrs.map((a) => a.address) }),
        (err: NodeJS.ErrnoException) => ({ ok: false as const, error: err.code ?? err.message }),
      ),
      stopped,
    ]);
    if (answer === null) return stoppedResult(d.why() ?? 'cancelled', timeoutMs, 'no answer');
    return answer.ok ? { status: 'pass', detail: `${host} → ${answer.addrs.slice(0, 3).join(', ')}` } : { status: 'fail', detail: `${host}: ${answer.error}` };
  } finally {
    d.clear();
  }
}
