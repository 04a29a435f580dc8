// The session model and the zod schema of session.json (DESIGN.md §3). Pure, shared by main,
// preload and renderer. session.json is Mori's own file; it never holds env values or secrets, and
// never trust approvals: anything in the project can write it (DESIGN.md §7). Unknown keys, such as
// the `trust` field of older files, are dropped on read and never honoured. Built with zod/mini:
// these schemas are built by every `mori` command and the daemon reads session.json often, and
// mini's schemas cost about a third of classic zod's to build and parse (the same checks).
import * as z from 'zod/mini';
import './zod-english.js';
import { PROFILE_NAMES, SESSION_NAME_PATTERN } from './session-names.js';
import { SANDBOX_NETWORKS } from './sandbox-networks.js';

/** Bumped whenever session.json changes shape; readers refuse versions they do not know. */
export const SESSION_SCHEMA_VERSION = 1;

export { PROFILE_NAMES, SESSION_NAME_PATTERN, sessionNameProblem } from './session-names.js';
export const ProfileName = z.enum(PROFILE_NAMES);
export type ProfileName = z.infer<typeof ProfileName>;

export const BackendName = z.enum(['tmux', 'direct']);
export type BackendName = z.infer<typeof BackendName>;

export const SessionName = z.string().check(z.regex(SESSION_NAME_PATTERN, 'a session name is 1-64 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit'));

/**
 * How a relaunch takes up the agent's conversation (DESIGN.md §5): by its own id (the whole
 * conversation reloaded), fresh (a new conversation given the full resume prompt), or auto (by id
 * while the conversation is small enough, else fresh: resume-choice.ts).
 */
export const RESUME_MODES = ['auto', 'by-id', 'fresh'] as const;
export const ResumeMode = z.enum(RESUME_MODES);
export type ResumeMode = z.infer<typeof ResumeMode>;

/**
 * What a session does at its agent's usage limit (DESIGN.md §5, "Hand-off"): `wait` for the reset, or
 * `handoff:<profile>`, continue with that agent (an agent profile: shell and custom need a command
 * approved apart) until the reset, then go back to the first agent (`handoff:<profile>:back`, the
 * same) or stay with the other (`handoff:<profile>:stay`).
 */
export const ON_USAGE_LIMIT_PATTERN = /^(?:wait|handoff:(?:claude|codex|gemini|opencode|aider)(?::(?:back|stay))?)$/;
export const OnUsageLimit = z.string().check(z.regex(ON_USAGE_LIMIT_PATTERN, 'expected wait or handoff:<agent profile>[:back|:stay] (claude, codex, gemini, opencode, aider)'));
export type OnUsageLimit = z.infer<typeof OnUsageLimit>;

/** Why a session was not running when it is brought back; `asked`: the person started it again after a stop, a finish or an attention. */
export const InterruptReason = z.enum(['sleep', 'network', 'crash', 'app-exit', 'reboot', 'supervisor-stopped', 'usage-limit', 'asked']);
export type InterruptReason = z.infer<typeof InterruptReason>;

/** Why a session is not running now (DESIGN.md §1); `new` until it first starts, `running` while supervised. */
/** A task line as `list` carries it: a row or the header shows a line, not a page (longer is cut with "…"). */
export const TASK_LINE_MAX = 200;

export const Intent = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('new') }),
  z.object({ kind: z.literal('running') }),
  z.object({ kind: z.literal('user-stopped') }),
  z.object({ kind: z.literal('finished') }),
  z.object({ kind: z.literal('interrupted'), reason: InterruptReason }),
  z.object({ kind: z.literal('attention'), reason: z.string() }),
]);
export type Intent = z.infer<typeof Intent>;

export const CrashRecord = z.object({ at: z.string(), awakeMs: z.number(), bootId: z.string() });
export type CrashRecord = z.infer<typeof CrashRecord>;

export const ExitRecord = z.object({
  at: z.string(),
  code: z.nullable(z.int()),
  signal: z.nullable(z.string()),
});

/** The commit a checkpoint recorded the work tree in (DESIGN.md §3), under refs/mori/<session id>/cp/<seq>. */
export const SnapshotRef = z.object({
  commit: z.string(),
  tree: z.string(),
  seq: z.int().check(z.positive()),
});
export type SnapshotRef = z.infer<typeof SnapshotRef>;

export const Checkpoint = z.object({
  at: z.string(),
  gitHead: z.nullable(z.string()),
  changedFiles: z.array(z.string()),
  /** Absent in files written before snapshots, and outside a git repository. */
  snapshot: z._default(z.nullable(SnapshotRef), null),
});
export type Checkpoint = z.infer<typeof Checkpoint>;

export const CheckResultRecord = z.object({
  id: z.string(),
  kind: z.string(),
  target: z.string(),
  status: z.enum(['pass', 'fail', 'timeout', 'skipped', 'untrusted']),
  durationMs: z.number(),
  detail: z.string(),
  outputTail: z.optional(z.string()),
  source: z.string(),
  /** What the state file called the check (`Test command`, `API server`), when it named it. */
  label: z.optional(z.string()),
});
export type CheckResultRecord = z.infer<typeof CheckResultRecord>;

/**
 * An agent's usage limit and the one resume planned after it (DESIGN.md §4): what said so and when,
 * when the limit resets (null: the agent did not say), when Mori resumes it, and how many resumes in
 * a row met a limit again (the retry backoff). Times are wall-clock epoch ms.
 */
export const UsageLimitPlan = z.object({
  detectedAt: z.number(),
  resetAt: z.nullable(z.number()),
  resumeAt: z.number(),
  source: z.enum(['hook', 'transcript', 'screen']),
  text: z.string(),
  retries: z.int().check(z.nonnegative()),
});
export type UsageLimitPlan = z.infer<typeof UsageLimitPlan>;

/**
 * A session handed to another agent at its first agent's usage limit, to go back at the reset
 * (DESIGN.md §5, "Hand-off"): who it was (its profile, its own id and the directory that id was
 * captured in), whom it went to, when (wall-clock epoch ms), when it goes back (`until`: the limit's
 * planned resume) and the limit's reset (null: none named), and the checkpoint taken at the hand-off
 * (its commit; null outside git), from which the files the other changed are told.
 */
export const HandedOver = z.object({
  from: ProfileName,
  fromId: z.nullable(z.string()),
  fromCwd: z.nullable(z.string()),
  to: ProfileName,
  at: z.number(),
  until: z.number(),
  resetAt: z.nullable(z.number()),
  checkpoint: z.nullable(z.string()),
});
export type HandedOver = z.infer<typeof HandedOver>;

/** A session's own git worktree (`mori init --worktree`): where it is, its branch, the repository it belongs to. */
export const SessionWorktree = z.object({ path: z.string().check(z.minLength(1)), branch: z.string().check(z.minLength(1)), repo: z.string().check(z.minLength(1)) });
export type SessionWorktree = z.infer<typeof SessionWorktree>;

export { SANDBOX_NETWORKS } from './sandbox-networks.js';
export const SandboxNetworkName = z.enum(SANDBOX_NETWORKS);
/** What a sandboxed session sees of the person's home outside the paths bound. */
export const SANDBOX_HOMES = ['read-only', 'hidden'] as const;
export const SandboxHomeName = z.enum(SANDBOX_HOMES);

/** A session's sandbox (DESIGN.md §11 "Sandbox"): whether its agent runs in one, and how. */
export const SessionSandbox = z.object({ on: z.boolean(), network: SandboxNetworkName, home: SandboxHomeName });
export type SessionSandbox = z.infer<typeof SessionSandbox>;

export const SessionRecord = z.object({
  schemaVersion: z.literal(SESSION_SCHEMA_VERSION),
  id: z.uuid(),
  name: SessionName,
  projectDir: z.string().check(z.minLength(1)),
  createdAt: z.string(),
  task: z.optional(z.string()),
  agent: z.object({
    profile: ProfileName,
    /** Command line template for the shell/custom profiles (`{prompt}`, `{id}` placeholders). */
    command: z.optional(z.string()),
    /** The agent's own session id (claude --session-id, codex rollout id, gemini chat id). */
    sessionId: z._default(z.nullable(z.string()), null),
    /** The directory the agent ran in when its session id was captured (claude keys transcripts by it). */
    cwd: z._default(z.nullable(z.string()), null),
    /**
     * The agent's earlier session ids that a fresh start left behind, oldest first, so the person can
     * go back to one (`claude --resume <id>`). Bounded: a person goes back a few, not hundreds.
     */
    previousIds: z._default(z.array(z.string()).check(z.maxLength(50)), []),
    /**
     * The conversation was taken from the agent's own supervisor (`mori init --adopt claude:<id>`):
     * while that supervisor holds it, Mori opens it there (`claude attach`) instead of resuming it.
     */
    fromOwnSupervisor: z.optional(z.boolean()),
  }),
  backend: BackendName,
  autoResume: z._default(z.boolean(), true),
  /** How a relaunch takes up the conversation; absent: the daemon's default (settings.json `resume.mode`). */
  resume: z.optional(ResumeMode),
  /** What it does at its agent's usage limit; absent: the daemon's default (settings.json `onUsageLimit`). */
  onUsageLimit: z.optional(OnUsageLimit),
  intent: z._default(Intent, { kind: 'new' }),
  lastExit: z._default(z.nullable(ExitRecord), null),
  /**
   * Recent crashes, so a crash loop is seen across supervisor restarts: when (wall clock), the awake
   * time then (a monotonic clock that stops in sleep, comparable within one boot) and the boot.
   * Plain strings are wall times written by older versions.
   */
  restartHistory: z._default(z.array(z.union([z.string(), CrashRecord])), []),
  lastCheckpoint: z._default(z.nullable(Checkpoint), null),
  /** Files the person rolled back (DESIGN.md §4): told to the agent in its next prompt, then cleared. */
  rollbackNotice: z._default(z.nullable(z.object({ at: z.string(), checkpoint: z.string(), files: z.array(z.string()) })), null),
  lastVerification: z._default(z.nullable(z.object({ at: z.string(), results: z.array(CheckResultRecord) })), null),
  lastBootId: z._default(z.nullable(z.string()), null),
  /** A resume that failed (the agent could not load its session): never tried again, even by a later supervisor. */
  failedResume: z._default(z.nullable(z.object({ file: z.string(), agentSessionId: z.nullable(z.string()) })), null),
  /**
   * The boot each pid named in environment.md was seen in (or written in, for a service Mori
   * started), keyed by the pid: a `(pid N)` check is valid only in that boot.
   */
  pidBoots: z._default(z.record(z.string(), z.object({ bootId: z.string(), seenAt: z.string() })), {}),
  /**
   * The nudge a resume is typing into a live agent (DESIGN.md §4, "Resume action"): for which
   * interruption, into which process (its pid, and its start time so a reused pid does not match),
   * and since when (wall-clock epoch ms). Cleared when that resume ends; a supervisor killed meanwhile
   * leaves it, so the next one, finding that process still there, does not type it again if it took it.
   */
  nudgeTyped: z._default(z.nullable(z.object({ reason: InterruptReason, pid: z.int(), pidStart: z.nullable(z.string()), at: z.number() })), null),
  /** The usage limit the session waits out, kept across Mori restarts and reboots; null when none. */
  usageLimit: z._default(z.nullable(UsageLimitPlan), null),
  /** Handed to another agent until its first agent's usage limit resets; null when not (or for good). */
  handedOver: z._default(z.nullable(HandedOver), null),
  /** The notice that session_state.md grew past the size set (state-growth.ts): given once, cleared when it is back under. */
  stateGrowthNotice: z._default(z.nullable(z.object({ at: z.string(), bytes: z.int() })), null),
  /** The git worktree made for the session (its projectDir), when it was created with one. */
  worktree: z.optional(SessionWorktree),
  /** Its sandbox; absent (files from before sandboxes): none. Changed only by the person (an approval). */
  sandbox: z.optional(SessionSandbox),
});
export type SessionRecord = z.infer<typeof SessionRecord>;
export type SessionRecordInput = z.input<typeof SessionRecord>;
