// The daemon's own settings, `$MORI_HOME/settings.json` (DESIGN.md §12): what both UIs (the app and
// `mori ui`) share — probe targets, which events notify, restart limits. A zod schema with defaults,
// so an empty or partial file is a valid one. Pure TypeScript, shared by main and the renderer.
import { z } from 'zod';
import { NOTIFY_EVENTS } from './notify-events.js';

/** `host:port`, an IPv6 host in brackets: what the reachability probe connects to. */
const ProbeTargetText = z.string().regex(/^(?:\[[^\]]+\]|[^:\s[\]]+):\d{1,5}$/, 'expected host:port');

export { NOTIFY_EVENTS } from './notify-events.js';
export const NotifyEvent = z.enum(NOTIFY_EVENTS);
export type NotifyEvent = z.infer<typeof NotifyEvent>;

export const DaemonSettings = z.object({
  /** null: the API hosts of the agents that run (or MORI_PROBE); else exactly these targets. */
  probeTargets: z.array(ProbeTargetText).max(32).nullable().default(null),
  notifications: z
    .object({
      /** Which transitions notify; every one by default (each notifies once per transition). */
      events: z.array(NotifyEvent).default([...NOTIFY_EVENTS]),
      paused: z.boolean().default(false),
      /**
       * Sessions whose notifications are muted (ids; a remote's as `host:<id>`), in the app and in
       * `mori ui`'s page alike. Bounded: a list past a thousand is not a person's.
       */
      muted: z.array(z.string().min(1).max(300)).max(1000).default([]),
    })
    .default({ events: [...NOTIFY_EVENTS], paused: false, muted: [] }),
  /** Restart limits (DESIGN.md §4); null keeps the built-in policy. Read when the daemon starts. */
  restart: z
    .object({
      // Bounds: below 100 ms a crashing agent spins; above an hour nobody waits for it.
      baseDelayMs: z.number().int().min(100).max(3_600_000).nullable().default(null),
      maxDelayMs: z.number().int().min(100).max(3_600_000).nullable().default(null),
      crashLoopCount: z.number().int().min(1).max(100).nullable().default(null),
    })
    .default({ baseDelayMs: null, maxDelayMs: null, crashLoopCount: null }),
});
export type DaemonSettings = z.infer<typeof DaemonSettings>;
export type DaemonSettingsInput = z.input<typeof DaemonSettings>;
