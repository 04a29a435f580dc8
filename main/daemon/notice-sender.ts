// Sends a notice to one target off the machine (DESIGN.md §13 "Notices off the machine"): a POST,
// retried with a growing delay while the target is down (no answer, a 5xx, 408 or 429), given up at
// once on any other refusal, and after the last try; a notice given up is one line in the daemon's
// log, naming the target by its masked URL and the reason by its code, never the URL or an error's
// text (either may carry the token). Runs in the daemon.
import type { NotifyTarget } from '../../common/daemon-settings.js';
import { maskedUrl } from '../../common/notify-targets.js';
import { noticeRequest, type SentNotice } from './notice-request.js';
import { joinSignals, onAbort } from '../joined-signal.js';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  tries: number;
  /** The delay before the second try; each later one is FACTOR times the one before. */
  baseMs: number;
}

/**
 * Five tries, 2 s then ×4: 2, 8, 32, 128 s — about three minutes, long enough for a server that
 * restarts or a Wi-Fi that comes back, short enough that a notice is not news of an hour ago.
 */
export const DEFAULT_RETRY: RetryPolicy = { tries: 5, baseMs: 2_000 };
const FACTOR = 4;
/** One try's bound: a target that accepts the connection and never answers is down, not slow. */
const TRY_TIMEOUT_MS = 10_000;

export interface Delivery {
  ok: boolean;
  tries: number;
  /** `HTTP 503`, `ECONNREFUSED`, `timed out`…: never an error's own text. */
  detail: string;
}

const retryable = (status: number): boolean => status >= 500 || status === 408 || status === 429;

function reasonOf(err: unknown): string {
  const e = err as { name?: string; cause?: { code?: unknown } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timed out';
  return typeof e.cause?.code === 'string' ? e.cause.code : 'no answer';
}

/**
 * A URL's userinfo as the Basic authorization ntfy and webhooks take (fetch refuses a URL that holds
 * credentials), and the URL without it.
 */
export function splitCredentials(text: string): { url: string; authorization: string | null } {
  const u = new URL(text);
  if (u.username === '' && u.password === '') return { url: text, authorization: null };
  const pair = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
  u.username = '';
  u.password = '';
  return { url: u.toString(), authorization: `Basic ${Buffer.from(pair, 'utf8').toString('base64')}` };
}

export class NoticeSender {
  private readonly stopped = new AbortController();

  constructor(
    private readonly o: { host: string; log: (line: string) => void; retry?: RetryPolicy },
  ) {}

  /** One try, no retry (`mori notify test`). */
  async once(target: NotifyTarget, n: SentNotice): Promise<Delivery> {
    const r = await this.attempt(target, n);
    return { ...r, tries: 1 };
  }

  /** Tries until delivered, refused, or out of tries; the last two end in one log line. */
  async deliver(target: NotifyTarget, n: SentNotice): Promise<Delivery> {
    const { tries, baseMs } = this.o.retry ?? DEFAULT_RETRY;
    let last = { ok: false, detail: 'not sent', retry: false };
    for (let i = 0; i < tries && !this.stopped.signal.aborted; i++) {
      if (i > 0) await this.sleep(baseMs * FACTOR ** (i - 1));
      if (this.stopped.signal.aborted) break;
      last = await this.attempt(target, n);
      if (last.ok) return { ok: true, tries: i + 1, detail: last.detail };
      if (!last.retry) {
        this.o.log(`a notice to ${target.kind} ${maskedUrl(target.url)} was refused (${last.detail}); not sent`);
        return { ok: false, tries: i + 1, detail: last.detail };
      }
    }
    if (!this.stopped.signal.aborted) this.o.log(`a notice to ${target.kind} ${maskedUrl(target.url)} was not delivered after ${tries} tries (${last.detail}); given up`);
    return { ok: false, tries, detail: last.detail };
  }

  /** Ends every wait for a retry: the daemon stops. */
  dispose(): void {
    this.stopped.abort();
  }

  private async attempt(target: NotifyTarget, n: SentNotice): Promise<{ ok: boolean; detail: string; retry: boolean }> {
    const req = noticeRequest(target, n, this.o.host);
    const { url, authorization } = splitCredentials(target.url);
    const signal = joinSignals(AbortSignal.timeout(TRY_TIMEOUT_MS), this.stopped.signal);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...req.headers, ...(authorization !== null ? { Authorization: authorization } : {}) },
        body: req.body,
        // A target that redirects is told as refused: the notice goes where the person said, or nowhere.
        redirect: 'error',
        signal: signal.signal,
      });
      await res.arrayBuffer().catch(() => undefined);
      return { ok: res.ok, detail: `HTTP ${res.status}`, retry: !res.ok && retryable(res.status) };
    } catch (err) {
      return { ok: false, detail: reasonOf(err), retry: true };
    } finally {
      signal.release();
    }
  }

  private sleep(ms: number): Promise<void> {
    // Every delivery waiting at once shares the stop's one listener (joined-signal.ts).
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        stop();
        resolve();
      };
      const t = setTimeout(done, ms);
      const stop = onAbort(this.stopped.signal, done);
    });
  }
}
