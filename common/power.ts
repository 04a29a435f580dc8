// Payloads of the sleep/wake and network events (DESIGN.md §8, §9): `power.suspend`, `power.resume`,
// `network.offline`, `network.online`. Pure TypeScript, shared by main (which produces them), the
// Electron layer and the renderer (which show them). Times are wall-clock epoch milliseconds.
import * as z from 'zod/mini';
import './zod-english.js';

/** Who noticed: the drift detector (always runs), Electron's powerMonitor, or a test injecting events. */
export const PowerSource = z.enum(['drift', 'powerMonitor', 'test']);
export type PowerSource = z.infer<typeof PowerSource>;

/** The machine went to sleep (or the process was frozen) at `at`. */
export const SuspendEvent = z.object({
  at: z.number(),
  source: PowerSource,
});
export type SuspendEvent = z.infer<typeof SuspendEvent>;

/**
 * The machine woke at `at` after `sleptMs`. Within one suspend/resume pair from the deduplicated
 * source, `sleptMs === resume.at - suspend.at` always holds.
 */
export const ResumeEvent = z.object({
  at: z.number(),
  sleptMs: z.number().check(z.nonnegative()),
  source: PowerSource,
});
export type ResumeEvent = z.infer<typeof ResumeEvent>;

/** No probe target has been reachable for a while; `since` is the first failed probe of the streak. */
export const NetworkOfflineEvent = z.object({
  at: z.number(),
  since: z.number(),
  /** What failed, one clause per target, e.g. `api.anthropic.com:443 dns ENOTFOUND`. */
  detail: z.string(),
});
export type NetworkOfflineEvent = z.infer<typeof NetworkOfflineEvent>;

/** A probe target is reachable again, steadily; `offlineMs` counts from the offline event's `since`. */
export const NetworkOnlineEvent = z.object({
  at: z.number(),
  offlineMs: z.number().check(z.nonnegative()),
});
export type NetworkOnlineEvent = z.infer<typeof NetworkOnlineEvent>;

/** The four events by the names the supervisor emits them under (DESIGN.md §9). */
export interface PowerEventMap {
  'power.suspend': SuspendEvent;
  'power.resume': ResumeEvent;
  'network.offline': NetworkOfflineEvent;
  'network.online': NetworkOnlineEvent;
}

/** What the network looks like now: `unknown` before the first verdict and right after a wake. */
export type NetworkStatus = 'unknown' | 'online' | 'offline';

/** One host:port a reachability probe connects to. */
export interface ProbeTarget {
  host: string;
  port: number;
}
