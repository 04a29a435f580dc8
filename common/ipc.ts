// The request/response contract of the running supervisor (DESIGN.md §9, §11, §12), spoken over the
// control socket `$MORI_HOME/mori.sock` as newline-delimited JSON, over the web host's WebSocket as
// one JSON message per WebSocket message, and over Electron IPC. Every payload is a zod schema here:
// both ends validate what they receive. Every connection opens with `hello`. Pure TypeScript.
import { ChangesListing, CheckpointInfo, CheckpointSpec, FileDiff, RollbackOutcome } from './checkpoints.js';
import { IPC_MAX_LINE_CHARS, IPC_MAX_TEXT_CHARS } from './ipc-limits.js';
import * as z from 'zod/mini';
import './zod-english.js';
import { AgentActivity } from './agent-activity.js';
import { DaemonSettings } from './daemon-settings.js';
import { NOTIFY_METHODS } from './notify-methods.js';
import { RuntimeState, SupervisorEvent } from './events.js';
import { ERROR_CODES } from './result.js';
import { BackendName, Intent, ProfileName, ResumeMode, SandboxNetworkName, SessionWorktree, TASK_LINE_MAX, UsageLimitPlan } from './session.js';
import { TERMINAL_MAX_COLS, TERMINAL_MAX_ROWS, TerminalFrame } from './terminal.js';
import { SessionUsage } from './usage.js';
import { ChecksListing } from './ipc-checks.js';
import { AwayReportSchema, ReportReadParams } from './ipc-report.js';
import { EDITABLE_STATE_FILES, STATE_FILES } from './state-files.js';

/** The protocol's version, sent in `hello` by both ends (protocol-frames.ts, where requests are framed). */
export { PROTOCOL_VERSION } from './protocol-frames.js';
/** What to do when the versions differ: the daemon is replaced, its tmux agents are re-attached. */
export const REPLACE_DAEMON_HINT = 'mori down && mori up --daemon';

/** A session as a request names it: its id (UUID) or its name, as the supervisor knows them. */
const SessionRef = z.string().check(z.minLength(1), z.maxLength(4096));
export { IPC_MAX_LINE_CHARS } from './ipc-limits.js';
const Cols = z.int().check(z.minimum(1), z.maximum(TERMINAL_MAX_COLS));
const Rows = z.int().check(z.minimum(1), z.maximum(TERMINAL_MAX_ROWS));

/** A hand-over as the words need it (session-view.ts profileWords): from whom, to whom, until when. */
const HandedOverWords = z.object({ from: ProfileName, to: ProfileName, until: z.number() });

/** What the supervisor tells about one session. */
export const LiveSession = z.object({
  id: z.string(),
  name: z.string(),
  stateDir: z.string(),
  state: RuntimeState,
  activity: AgentActivity,
  backend: z.enum(['tmux', 'direct']),
  pid: z.nullable(z.int()),
  intent: Intent,
  /** When a restart is scheduled (backoff): epoch ms. */
  nextAttemptAt: z.nullable(z.number()),
  /** The project folder, the agent profile, and how many checks failed at the last verification (the window's list shows them). */
  projectDir: z.optional(z.string()),
  profile: z.optional(ProfileName),
  failingChecks: z.optional(z.int().check(z.nonnegative())),
  /** The usage limit it waits out (`limited`) or was stopped at ("Don't resume"): resetAt, resumeAt… */
  usageLimit: z.optional(z.nullable(UsageLimitPlan)),
  /** Handed to `to` at `from`'s usage limit, going back at `until` (epoch ms); absent: not handed over. */
  handedOver: z.optional(HandedOverWords),
  /** The branch of the session's own git worktree, when it has one. */
  branch: z.optional(z.string()),
  /** Its agent runs in a sandbox (DESIGN.md §11 "Sandbox"); absent: not. */
  sandboxed: z.optional(z.boolean()),
  /** How its sandbox reaches the network, when it has one. */
  sandboxNetwork: z.optional(SandboxNetworkName),
  /** The permission mode its agent's record says it runs in ("auto", "default", "bypass"…; agent-written: shown through visible-text); absent: unknown. */
  permissionMode: z.optional(z.string().check(z.maxLength(32))),
  /** While in `attention`: why, as last announced (`session.attention`), for a client that came after it. */
  attention: z.optional(z.object({ reason: z.string(), message: z.string() })),
  /** The first line of session_state.md's current task (`list` only; agent-written: shown through visible-text). */
  task: z.optional(z.nullable(z.string().check(z.maxLength(TASK_LINE_MAX)))),
});
export type LiveSession = z.infer<typeof LiveSession>;

/**
 * The fields of session.json that `mori ls` reads from a listing; the rest passes as the daemon sent
 * it (it read the file through the whole schema). Checking every field of a hundred sessions again
 * was most of the command's own time. These schemas check; the method's result is the value as sent
 * (`resultAsSent`), so they are plain objects: a loose one copies every field it does not check,
 * which cost the command ~10 ms and a garbage collection at a hundred sessions.
 */
const ListedRecord = z.object({
  id: z.string(),
  name: z.string(),
  projectDir: z.string(),
  backend: z.string(),
  agent: z.object({ profile: z.string() }),
  intent: Intent,
  handedOver: z.optional(z.nullable(HandedOverWords)),
  worktree: z.optional(z.object({ branch: z.string() })),
});

/** What `mori ls` reads of a session's live state (its words: lifecycle, activity, pid, usage limit); the rest passes as sent. */
const ListedLive = z.object({
  id: z.string(),
  state: RuntimeState,
  activity: AgentActivity,
  pid: z.nullable(z.int()),
  usageLimit: z.optional(z.nullable(UsageLimitPlan)),
});

/**
 * One session as `mori ls` lists it. The fields the CLI reads are checked; the rest (task, last
 * work-log entry, state problem) is printed as the daemon read it from the session's own files.
 */
const ListingEntry = z.object({ stateDir: z.string(), ok: z.boolean(), session: z.optional(ListedRecord), live: z.nullable(ListedLive) });

export const EditableStateFile = z.enum(EDITABLE_STATE_FILES);
export type EditableStateFile = z.infer<typeof EditableStateFile>;
/** A state file's version: the hash of its bytes, so any change by anyone is a new version. */
const Version = z.string().check(z.minLength(1), z.maxLength(200));
/** Longest text a state file write or log entry carries: half a line, as `send` (a line holds JSON escapes). */
const MAX_TEXT = IPC_MAX_TEXT_CHARS;
/** A page of earlier terminal output is at most this many bytes: escaped in JSON it stays within a line. */
export const TRANSCRIPT_PAGE_MAX_BYTES = 128 * 1024;
/** A page of the work log is at most this many entries: a screenful many times over. */
export const LOG_PAGE_MAX = 500;

/** Where a client is in the daemon's event log: the daemon run (`epoch`) and the last event's number. */
export const EventPosition = z.object({ epoch: z.string().check(z.minLength(1), z.maxLength(100)), seq: z.int().check(z.nonnegative()) });
export type EventPosition = z.infer<typeof EventPosition>;
/** Why the events after a position cannot be given: another daemon run, older than the log keeps, or ahead of it. */
export const EventResync = z.enum(['epoch', 'gap', 'ahead']);
export type EventResync = z.infer<typeof EventResync>;
/** A daemon from before the event log answers `{}`: read as no position (epoch ''), so its events flow unnumbered. */
export const SubscribeResult = z.object({
  epoch: z._default(z.string(), ''),
  seq: z._default(z.int(), 0),
  replayed: z._default(z.int(), 0),
  resync: z._default(z.nullable(EventResync), null),
});
export type SubscribeResult = z.infer<typeof SubscribeResult>;
/** A page of `events.since` is at most this many events: each a few hundred bytes, a page stays well within a line. */
export const EVENTS_PAGE_MAX = 1000;

/** One work-log entry; `index` counts from the oldest entry, archive included, and never changes. */
export const LogEntry = z.object({
  index: z.int().check(z.nonnegative()),
  heading: z.string(),
  /** The heading's time (ISO), when the heading is a timestamp. */
  at: z.nullable(z.string()),
  lines: z.array(z.string()),
  /** Whether it now lives in work_log.archive.md. */
  archived: z.boolean(),
});
export type LogEntry = z.infer<typeof LogEntry>;

export { CheckRow, ChecksListing } from './ipc-checks.js';

/**
 * Methods whose schemas are built on first use: a process uses a few of them (a `mori` command one or
 * two), and building every schema costs a short-lived CLI more than its own work.
 */
function lazyMethods<T extends Record<string, () => { params: z.core.$ZodType; result: z.core.$ZodType; resultAsSent?: true }>>(build: T): { readonly [K in keyof T]: ReturnType<T[K]> } {
  const methods = {} as { [K in keyof T]: ReturnType<T[K]> };
  for (const name of Object.keys(build) as (keyof T & string)[]) {
    Object.defineProperty(methods, name, {
      enumerable: true,
      configurable: true,
      get: () => {
        const schemas = build[name]?.() as ReturnType<T[typeof name]>;
        Object.defineProperty(methods, name, { value: schemas, enumerable: true });
        return schemas;
      },
    });
  }
  return methods;
}

/** Each method: its params and its result. */
export const IpcMethods = lazyMethods({
  /** First request of every connection: both ends name their protocol version. */
  hello: () => ({
    params: z.object({ protocol: z.int(), client: z.optional(z.string().check(z.maxLength(200))) }),
    /** `epoch` and `seq`: this daemon run and its last event's number (the event log, `events.since`). */
    result: z.object({ protocol: z.int(), pid: z.int(), home: z.string(), startedAt: z.number(), epoch: z.string(), seq: z.int() }),
  }),
  /** Stops the daemon: tmux agents keep running (re-attached by the next one); `stopAgents` stops every agent as the person would. */
  'daemon.stop': () => ({ params: z.object({ stopAgents: z._default(z.boolean(), false) }), result: z.object({ pid: z.int() }) }),
  /** Whether the daemon keeps the machine from idle sleep now (settings `keepAwake`), for how many working sessions, until when. */
  'daemon.awake': () => ({
    params: z.object({}),
    result: z.object({ enabled: z.boolean(), holding: z.boolean(), working: z.int().check(z.nonnegative()), releaseAt: z.nullable(z.number()) }),
  }),
  list: () => ({ params: z.object({}), result: z.array(LiveSession) }),
  /**
   * Every registered session as `mori ls` lists it (main/supervisor/session/session-listing.ts): its
   * state files' summary, a recorded state problem, and `live`. The daemon answers it from warm
   * parsers, so the CLI need not load and parse every session's files itself.
   */
  'sessions.listing': () => ({ params: z.object({}), result: z.array(ListingEntry), resultAsSent: true as const }),
  start: () => ({ params: z.object({ session: SessionRef }), result: LiveSession }),
  stop: () => ({ params: z.object({ session: SessionRef }), result: LiveSession }),
  /** A session at its usage limit resumes now instead of at its planned time. */
  'limit.resume-now': () => ({ params: z.object({ session: SessionRef }), result: LiveSession }),
  /** A session at its usage limit is not resumed: stopped by the person, its limit kept for the words. */
  'limit.dont-resume': () => ({ params: z.object({ session: SessionRef }), result: LiveSession }),
  /** Types `text` into the agent's terminal; `enter` appends a carriage return. */
  send: () => ({ params: z.object({ session: SessionRef, text: z.string().check(z.maxLength(IPC_MAX_LINE_CHARS / 2)), enter: z._default(z.boolean(), true) }), result: z.object({ chars: z.int() }) }),
  /**
   * Turns the connection into an attachment: frames follow, input/resize/ack/hold/detach are
   * accepted. `holding` false: a view the person does not see (see `hold`).
   */
  attach: () => ({ params: z.object({ session: SessionRef, cols: Cols, rows: Rows, holding: z.optional(z.boolean()) }), result: LiveSession }),
  input: () => ({ params: z.object({ data: z.string().check(z.maxLength(IPC_MAX_LINE_CHARS / 2)) }), result: z.object({}) }),
  resize: () => ({ params: z.object({ cols: Cols, rows: Rows }), result: z.object({}) }),
  ack: () => ({ params: z.object({ chars: z.int().check(z.nonnegative()) }), result: z.object({}) }),
  /**
   * Whether this attachment holds its agent back (shown to the person) or not (hidden): one that does
   * not is never waited for, is sent nothing once far behind, and gets a new snapshot when it holds again.
   */
  hold: () => ({ params: z.object({ holding: z.boolean() }), result: z.object({}) }),
  detach: () => ({ params: z.object({}), result: z.object({}) }),
  /**
   * Streams every daemon event on this connection from now on, each with its number. With `since`
   * (the last event a client saw), the events after it come first, in order, before the reply; or the
   * reply says `resync` (another daemon run, a gap older than the log, a number never given) and the
   * client reads the whole state again. `seq`: the last event sent before the live stream.
   */
  subscribe: () => ({ params: z.object({ since: z.optional(EventPosition) }), result: SubscribeResult }),
  /** The events after `seq` of daemon run `epoch` (at most `limit`; `more` when others follow), or why not (`resync`). */
  'events.since': () => ({
    params: z.extend(EventPosition, { limit: z._default(z.int().check(z.minimum(1), z.maximum(EVENTS_PAGE_MAX)), EVENTS_PAGE_MAX) }),
    result: z.object({ epoch: z.string(), seq: z.int(), resync: z.nullable(EventResync), events: z.array(LoggedEvent), more: z.boolean() }),
  }),
  /**
   * The last `limit` events the daemon still keeps (of `types` only, when given), oldest first, each
   * with its number and time: what a window opened later shows of what happened before it. `types`
   * are short words (a few dozen exist). `seq`: the last event's number when read.
   */
  'events.recent': () => ({
    params: z.object({
      limit: z._default(z.int().check(z.minimum(1), z.maximum(EVENTS_PAGE_MAX)), EVENTS_PAGE_MAX),
      types: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(64))),
    }),
    result: z.object({ epoch: z.string(), seq: z.int(), events: z.array(LoggedEvent) }),
  }),
  /** Creates a session (state dir, registry) and loads it, not started. `command` only for shell/custom. */
  'session.init': () => ({
    params: z.object({
      projectDir: z.string().check(z.minLength(1), z.maxLength(4096)),
      name: z.string().check(z.minLength(1), z.maxLength(64)),
      profile: ProfileName,
      task: z.optional(z.string().check(z.maxLength(MAX_TEXT))),
      backend: BackendName,
      command: z.optional(z.string().check(z.minLength(1), z.maxLength(10_000))),
      /** How its relaunches take up the conversation; absent: the daemon's default. */
      resume: z.optional(ResumeMode),
      /** Make a git worktree of projectDir's repository on a new branch (default `mori/<name>`) and work there. */
      worktree: z.optional(z.object({ branch: z.optional(z.string().check(z.minLength(1), z.maxLength(200))) })),
      /** Run its agent in a sandbox (true) or not (false); absent: the daemon's default. Choosing is an approval. */
      sandbox: z.optional(z.boolean()),
      /** How its sandbox reaches the network; absent: the settings' (`sandbox.network`). */
      sandboxNetwork: z.optional(SandboxNetworkName),
    }),
    result: LiveSession,
  }),
  /**
   * Hands the session to an agent of another profile: its agent is stopped (its own id kept in
   * agent.previousIds) and one of `profile` starts fresh in the same directory with the full resume
   * prompt, told who worked before it and `reason`. `command` only for shell/custom (approved apart).
   */
  'session.handoff': () => ({
    params: z.object({
      session: SessionRef,
      profile: ProfileName,
      reason: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
      command: z.optional(z.string().check(z.minLength(1), z.maxLength(10_000))),
    }),
    result: LiveSession,
  }),
  /** Gives a session a new name (same id): its state dir moves to `.mori/<name>/`. Refused while its agent runs. */
  'session.rename': () => ({ params: z.object({ session: SessionRef, name: z.string().check(z.minLength(1), z.maxLength(64)) }), result: LiveSession }),
  /**
   * Stops the agent and unregisters the session; its state dir is kept unless `deleteState`. Its own
   * worktree is kept unless `removeWorktree`: refused (`conflict`, nothing removed) with uncommitted
   * changes or commits no other branch holds unless `force`. The branch always stays.
   */
  'session.remove': () => ({
    params: z.object({ session: SessionRef, deleteState: z._default(z.boolean(), false), removeWorktree: z._default(z.boolean(), false), force: z._default(z.boolean(), false) }),
    result: z.object({
      id: z.string(),
      name: z.string(),
      stateDir: z.string(),
      stateDeleted: z.boolean(),
      /** The session's own worktree, when it had one, and whether it was removed. */
      worktree: z.optional(z.object({ ...SessionWorktree.shape, removed: z.boolean() })),
    }),
  }),
  'state.read': () => ({ params: z.object({ session: SessionRef, file: EditableStateFile }), result: z.object({ text: z.string(), version: Version }) }),
  /** Writes only over `baseVersion`; else the file is left untouched and its current text and version come back. */
  'state.write': () => ({
    params: z.object({ session: SessionRef, file: EditableStateFile, text: z.string().check(z.maxLength(MAX_TEXT)), baseVersion: Version }),
    result: z.discriminatedUnion('outcome', [
      z.object({ outcome: z.literal('written'), version: Version }),
      z.object({ outcome: z.literal('conflict'), text: z.string(), version: Version }),
    ]),
  }),
  /** A page of entries, newest last: those before `before` (an entry index), else the newest. */
  'log.tail': () => ({
    params: z.object({ session: SessionRef, before: z.optional(z.int().check(z.nonnegative())), limit: z._default(z.int().check(z.minimum(1), z.maximum(LOG_PAGE_MAX)), 50) }),
    result: z.object({ entries: z.array(LogEntry), more: z.boolean(), total: z.int() }),
  }),
  /** Earlier terminal output from the session's transcript: up to `maxBytes` ending `beforeEnd` bytes before its end. */
  /** Token usage, cost and context of the sessions named (all when none), read since the last request (DESIGN.md §5 "Usage"). */
  'usage.read': () => ({ params: z.object({ sessions: z._default(z.array(SessionRef).check(z.maxLength(10_000)), []) }), result: z.array(SessionUsage) }),
  /** The report of the time away (DESIGN.md §9), over the sessions the supervisor holds. */
  'report.read': () => ({ params: ReportReadParams, result: AwayReportSchema }),
  'transcript.read': () => ({
    params: z.object({ session: SessionRef, beforeEnd: z._default(z.int().check(z.nonnegative()), 0), maxBytes: z._default(z.int().check(z.minimum(1), z.maximum(TRANSCRIPT_PAGE_MAX_BYTES)), TRANSCRIPT_PAGE_MAX_BYTES) }),
    /** `bytes` read (the next page's `beforeEnd` grows by it); `data` as UTF-8 text, possibly starting mid-line. */
    result: z.object({ data: z.string(), bytes: z.int(), totalBytes: z.int() }),
  }),
  'log.append': () => ({ params: z.object({ session: SessionRef, text: z.string().check(z.minLength(1), z.maxLength(MAX_TEXT)) }), result: LogEntry }),
  'checks.list': () => ({ params: z.object({ session: SessionRef }), result: ChecksListing }),
  /** Runs the checks now; the value is what `mori verify --json` prints. Emits verify.started/finished. */
  'checks.verify': () => ({ params: z.object({ session: SessionRef, restartServices: z._default(z.boolean(), false) }), result: z.record(z.string(), z.unknown()) }),
  /** Approves exactly the list whose hash `checks.list` showed; a stale hash is refused (`conflict`). */
  'checks.trust': () => ({ params: z.object({ session: SessionRef, hash: z.string().check(z.minLength(1), z.maxLength(200)) }), result: z.object({ hash: z.string(), items: z.int() }) }),
  /**
   * Approves exactly the agent command whose hash `checks.list` showed (a stale hash is refused,
   * `conflict`); a session that waited for this approval is started (`started`).
   */
  'agent.trust': () => ({ params: z.object({ session: SessionRef, hash: z.string().check(z.minLength(1), z.maxLength(200)) }), result: z.object({ hash: z.string(), command: z.nullable(z.string()), started: z.boolean() }) }),
  /** The session's checkpoints, oldest first: its first and its most recent (DESIGN.md §3). */
  'checkpoints.list': () => ({ params: z.object({ session: SessionRef }), result: z.object({ checkpoints: z.array(CheckpointInfo) }) }),
  /** Snapshots the work tree now; `created` false when it was the last checkpoint's (that one comes back). */
  'checkpoint.take': () => ({
    params: z.object({ session: SessionRef, message: z.optional(z.string().check(z.maxLength(500))) }),
    // `changedFiles`: the files changed against HEAD (absent from a daemon of an earlier build).
    result: z.object({ created: z.boolean(), checkpoint: CheckpointInfo, changedFiles: z.optional(z.array(z.string())) }),
  }),
  /** Files added, modified and deleted between checkpoint `since` and the work tree now. */
  'changes.list': () => ({ params: z.object({ session: SessionRef, since: z._default(CheckpointSpec, 'start') }), result: ChangesListing }),
  /** Per file (all changed, or `paths`, project-relative): the unified patch and, for text, both sides. Ask per file for big changes. */
  'changes.diff': () => ({
    params: z.object({ session: SessionRef, since: z._default(CheckpointSpec, 'start'), paths: z._default(z.array(z.string().check(z.minLength(1), z.maxLength(4096))).check(z.maxLength(1000)), []) }),
    result: z.object({ since: CheckpointInfo, files: z.array(FileDiff) }),
  }),
  /** Restores files as checkpoint `to` holds them (all, or `files`), after checkpointing the current state; `busy` while the agent works unless `confirm`. */
  rollback: () => ({
    params: z.object({ session: SessionRef, to: CheckpointSpec, files: z._default(z.array(z.string().check(z.minLength(1), z.maxLength(4096))).check(z.maxLength(10_000)), []), dryRun: z._default(z.boolean(), false), confirm: z._default(z.boolean(), false) }),
    result: RollbackOutcome,
  }),
  'settings.get': () => ({ params: z.object({}), result: DaemonSettings }),
  /** Replaces the settings (validated, written atomically); the value is what was stored. */
  'settings.set': () => ({ params: z.object({ settings: DaemonSettings }), result: DaemonSettings }),
  ...NOTIFY_METHODS,
  /** Electron's powerMonitor, forwarded: a suspend checkpoints and logs every running session before the reply. */
  'hint.power': () => ({ params: z.object({ kind: z.enum(['suspend', 'resume', 'lock', 'unlock']) }), result: z.object({ interrupted: z.int() }) }),
  /** The OS says the network changed: probe now. */
  'hint.network': () => ({ params: z.object({ state: z.enum(['online', 'offline']) }), result: z.object({}) }),
});
export type IpcMethod = keyof typeof IpcMethods;
export type IpcParams<M extends IpcMethod> = z.input<(typeof IpcMethods)[M]['params']>;
/** The params as the method's schema returns them (defaults filled in): what a handler receives. */
export type IpcParsedParams<M extends IpcMethod> = z.infer<(typeof IpcMethods)[M]['params']>;
export type IpcResult<M extends IpcMethod> = z.infer<(typeof IpcMethods)[M]['result']>;
export const IPC_METHODS = Object.keys(IpcMethods) as IpcMethod[];

/** One request line: `{ id, method, params }`. The params are validated against the method's schema. */
export const IpcRequestEnvelope = z.object({
  id: z.int().check(z.nonnegative()),
  method: z.enum(IPC_METHODS as [IpcMethod, ...IpcMethod[]]),
  params: z._default(z.unknown(), {}),
});
export type IpcRequestEnvelope = z.infer<typeof IpcRequestEnvelope>;

const ErrorCode = z.enum(ERROR_CODES);

/** Events the daemon adds to the supervisor's, so a UI stays current without polling. */
export const DaemonOwnEvent = z.lazy(() => z.discriminatedUnion('type', [
  /** A state file changed by someone other than Mori (the agent, an editor, a person). */
  z.object({ type: z.literal('state.changed'), at: z.number(), sessionId: z.string(), name: z.string(), file: z.enum(STATE_FILES), change: z.enum(['changed', 'deleted']) }),
  /** work_log.md grew or was compacted, by anyone (Mori's own entries included). */
  z.object({ type: z.literal('log.appended'), at: z.number(), sessionId: z.string(), name: z.string() }),
  z.object({ type: z.literal('settings.changed'), at: z.number(), settings: DaemonSettings }),
]));
export const DaemonEvent = z.union([SupervisorEvent, DaemonOwnEvent]);
export type DaemonEvent = z.infer<typeof DaemonEvent>;
/** An event as the daemon's log keeps it: with its number in this daemon run. */
export const LoggedEvent = z.object({ seq: z.int().check(z.positive()), event: DaemonEvent });
export type LoggedEvent = z.infer<typeof LoggedEvent>;

/** What the supervisor sends: replies to requests, and stream messages (events, frames, detach). */
export const IpcServerMessage = z.union([
  z.object({ kind: z.literal('reply'), id: z.int(), ok: z.literal(true), value: z.unknown() }),
  z.object({ kind: z.literal('reply'), id: z.int(), ok: z.literal(false), code: ErrorCode, message: z.string() }),
  /** `seq`: the event's number in this daemon run (an older daemon sends none). */
  z.object({ kind: z.literal('event'), event: DaemonEvent, seq: z.optional(z.int().check(z.positive())) }),
  z.object({ kind: z.literal('frame'), frame: TerminalFrame }),
  /** The attachment ended: the agent exited, the session was stopped, or the supervisor is stopping. */
  z.object({ kind: z.literal('detached'), reason: z.string() }),
  /** The daemon is closing this connection, and why (it stopped reading, the daemon stops). */
  z.object({ kind: z.literal('closing'), reason: z.string() }),
]);
export type IpcServerMessage = z.infer<typeof IpcServerMessage>;

/** Validates one method's params: the parsed value, or the first problem as text. */
export function parseParams<M extends IpcMethod>(method: M, params: unknown): { ok: true; value: IpcParsedParams<M> } | { ok: false; message: string } {
  const r = z.safeParse(IpcMethods[method].params, params ?? {});
  if (r.success) return { ok: true, value: r.data as IpcParsedParams<M> };
  const issue = r.error.issues[0];
  return { ok: false, message: `${method}: ${issue && issue.path.length > 0 ? issue.path.join('.') + ': ' : ''}${issue?.message ?? 'invalid params'}` };
}
