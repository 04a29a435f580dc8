// The daemon's own settings, `$MORI_HOME/settings.json` (DESIGN.md §12): what both UIs (the app and
// `mori ui`) share — probe targets, which events notify, restart limits. A zod schema with defaults,
// so an empty or partial file is a valid one. Pure TypeScript, shared by main and the renderer.
import * as z from 'zod/mini';
import './zod-english.js';
import { NOTIFY_EVENTS } from './notify-events.js';

/** `host:port`, an IPv6 host in brackets: what the reachability probe connects to. */
const ProbeTargetText = z.string().check(z.regex(/^(?:\[[^\]]+\]|[^:\s[\]]+):\d{1,5}$/, 'expected host:port'));

export { NOTIFY_EVENTS } from './notify-events.js';
export const NotifyEvent = z.enum(NOTIFY_EVENTS);
export type NotifyEvent = z.infer<typeof NotifyEvent>;

export const DaemonSettings = z.object({
  /** null: the API hosts of the agents that run (or MORI_PROBE); else exactly these targets. */
  probeTargets: z._default(z.nullable(z.array(ProbeTargetText).check(z.maxLength(32))), null),
  notifications: z._default(
    z.object({
      /** Which transitions notify; every one by default (each notifies once per transition). */
      events: z._default(z.array(NotifyEvent), [...NOTIFY_EVENTS]),
      paused: z._default(z.boolean(), false),
      /**
       * Sessions whose notifications are muted (ids; a remote's as `host:<id>`), in the app and in
       * `mori ui`'s page alike. Bounded: a list past a thousand is not a person's.
       */
      muted: z._default(z.array(z.string().check(z.minLength(1), z.maxLength(300))).check(z.maxLength(1000)), []),
    }),
    { events: [...NOTIFY_EVENTS], paused: false, muted: [] },
  ),
  /** Restart limits (DESIGN.md §4); null keeps the built-in policy. Read when the daemon starts. */
  restart: z._default(
    z.object({
      // Bounds: below 100 ms a crashing agent spins; above an hour nobody waits for it.
      baseDelayMs: z._default(z.nullable(z.int().check(z.minimum(100), z.maximum(3_600_000))), null),
      maxDelayMs: z._default(z.nullable(z.int().check(z.minimum(100), z.maximum(3_600_000))), null),
      crashLoopCount: z._default(z.nullable(z.int().check(z.minimum(1), z.maximum(100))), null),
    }),
    { baseDelayMs: null, maxDelayMs: null, crashLoopCount: null },
  ),
});
export type DaemonSettings = z.infer<typeof DaemonSettings>;
export type DaemonSettingsInput = z.input<typeof DaemonSettings>;
