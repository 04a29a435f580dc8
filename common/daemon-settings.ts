// The daemon's own settings, `$MORI_HOME/settings.json` (DESIGN.md §12): what both UIs (the app and
// `mori ui`) share — probe targets, which events notify, restart limits. A zod schema with defaults,
// so an empty or partial file is a valid one. Pure TypeScript, shared by main and the renderer.
import * as z from 'zod/mini';
import './zod-english.js';
import { NOTIFY_EVENTS, TARGET_DEFAULT_EVENTS, TARGET_EVENTS, TARGET_KINDS } from './notify-events.js';
import { isHttpUrl } from './notify-targets.js';
import { OnUsageLimit, ResumeMode, SandboxHomeName, SandboxNetworkName } from './session.js';
import { CONTEXT_WARN_PERCENT } from './usage-figures.js';

/** `host:port`, an IPv6 host in brackets: what the reachability probe connects to. */
const ProbeTargetText = z.string().check(z.regex(/^(?:\[[^\]]+\]|[^:\s[\]]+):\d{1,5}$/, 'expected host:port'));

export { NOTIFY_EVENTS } from './notify-events.js';
export const NotifyEvent = z.enum(NOTIFY_EVENTS);
export type NotifyEvent = z.infer<typeof NotifyEvent>;

/** A path a sandbox binds: absolute, or `~/…` in the person's home. */
const SandboxPath = z.string().check(z.regex(/^(?:\/|~\/)/, 'expected an absolute path or ~/…'), z.maxLength(4096));

/** Sandboxes (DESIGN.md §11 "Sandbox"): whether new sessions get one, their defaults, and paths every sandbox binds. */
export const SandboxSettings = z.object({
  /** New sessions are sandboxed unless `mori init --no-sandbox`; off until the person turns it on. */
  default: z._default(z.boolean(), false),
  network: z._default(SandboxNetworkName, 'full'),
  home: z._default(SandboxHomeName, 'read-only'),
  // Bounded: a person lists a few caches and dotfiles, not hundreds.
  readWrite: z._default(z.array(SandboxPath).check(z.maxLength(64)), []),
  readOnly: z._default(z.array(SandboxPath).check(z.maxLength(64)), []),
  /** The `allowlist` mode's hosts beyond each agent's own APIs: `host`, `*.domain` or an IP literal, with an optional `:port` (checked at launch). */
  allowedHosts: z._default(z.array(z.string().check(z.minLength(1), z.maxLength(260))).check(z.maxLength(64)), []),
});
export type SandboxSettings = z.infer<typeof SandboxSettings>;
export const SANDBOX_DEFAULTS: SandboxSettings = { default: false, network: 'full', home: 'read-only', readWrite: [], readOnly: [], allowedHosts: [] };

/**
 * A target off the machine (DESIGN.md §13 "Notices off the machine"): ntfy's publish format or a JSON
 * webhook, and the events it is sent. Its URL may carry a token: shown masked (notify-targets.ts).
 */
export const NotifyTarget = z.object({
  // Short random ids: `mori notify rm` names one, and the window keys its rows by it.
  id: z.string().check(z.regex(/^[a-z0-9]{4,16}$/, 'expected 4 to 16 lower-case letters or digits')),
  kind: z.enum(TARGET_KINDS),
  // 2 KiB: past a browser's limit for a URL.
  url: z.string().check(z.maxLength(2048), z.refine(isHttpUrl, 'expected an http:// or https:// URL')),
  events: z._default(z.array(z.enum(TARGET_EVENTS)).check(z.maxLength(TARGET_EVENTS.length)), [...TARGET_DEFAULT_EVENTS]),
});
export type NotifyTarget = z.infer<typeof NotifyTarget>;

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
  /**
   * Where notices go off the machine, changed only by `notify.add` / `notify.remove` (an approval):
   * `settings.set` keeps these, and `settings.get` shows their URLs masked. A few, not a fleet.
   */
  notifyTargets: z._default(z.array(NotifyTarget).check(z.maxLength(16)), []),
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
  /** What a session that names no policy of its own does at a usage limit (DESIGN.md §5); read when the daemon starts. */
  onUsageLimit: z._default(OnUsageLimit, 'wait'),
  /** How relaunches take up the conversation (DESIGN.md §5); read when the daemon starts. */
  resume: z._default(
    z.object({
      /** For sessions that name no mode of their own. */
      mode: z._default(ResumeMode, 'auto'),
      /**
       * `auto` resumes by id while the conversation's last context is under this share of the model's
       * window. 60 %: past it, a by-id resume reloads most of a window (paid again in full once the
       * API's prompt cache is cold) and leaves little room to work before the agent compacts.
       */
      contextSharePercent: z._default(z.int().check(z.minimum(1), z.maximum(100)), 60),
      /**
       * session_state.md past this many bytes gets one notice naming the sections that grew most.
       * 16 KiB is about four resume-prompt budgets: past it the file is a log, not a state.
       */
      stateFileNoticeBytes: z._default(z.int().check(z.minimum(1024), z.maximum(10 * 1024 * 1024)), 16 * 1024),
    }),
    { mode: 'auto', contextSharePercent: 60, stateFileNoticeBytes: 16 * 1024 },
  ),
  /** How usage figures are shown (DESIGN.md §5 "Usage"); read at each listing, so a change counts at once. */
  usage: z._default(
    z.object({
      /** A session whose last request's context passes this share (%) of the model's window says so (`mori ls`, `mori status`, the window). */
      contextWarnPercent: z._default(z.int().check(z.minimum(1), z.maximum(100)), CONTEXT_WARN_PERCENT),
    }),
    { contextWarnPercent: CONTEXT_WARN_PERCENT },
  ),
  /** Sandboxes; read when the daemon starts. */
  sandbox: z._default(SandboxSettings, { ...SANDBOX_DEFAULTS }),
  /**
   * Keeping the machine from idle sleep while agents work (DESIGN.md §6 "Keep awake"); off until the
   * person turns it on. A closing lid still suspends: that is what the resume is for.
   */
  keepAwake: z._default(
    z.object({
      enabled: z._default(z.boolean(), false),
      // Two minutes by default: a pause between two turns, or a check before the next, is not the end of the work.
      graceMinutes: z._default(z.int().check(z.minimum(0), z.maximum(120)), 2),
    }),
    { enabled: false, graceMinutes: 2 },
  ),
});
export type DaemonSettings = z.infer<typeof DaemonSettings>;
export type DaemonSettingsInput = z.input<typeof DaemonSettings>;
