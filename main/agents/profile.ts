// The shape of an agent profile (DESIGN.md §5): how one agent CLI is started, resumed, nudged and
// read, and the optional capabilities the supervisor asks it for (hooks, usage-limit sources, a
// status file, its id form, its usage record) instead of naming agents. Each profile lives in main/agents/<name>/.
// Profiles are data plus small functions; this file only declares the types. Runs in the
// supervisor's process (Electron main or `mori up`).
import type { AgentActivity } from '../../common/agent-activity.js';
import type { Result } from '../../common/result.js';
import type { ProfileName } from '../../common/session.js';
import type { HookReport } from './hooks/hook-events.js';
import type { HookLayer, HookPlace } from './hooks/hook-layers.js';
import type { TypingRules } from './typing.js';
import type { UsageLimitSignal } from './usage-limit/usage-limit-signal.js';
import type { UsageSource } from './usage/usage-record.js';

/** The environment a launch is computed from (bin overrides, config dirs, HOME). Never stored. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A command to spawn, never through a shell: the backend runs `file` with `args` in `cwd`. */
export interface LaunchSpec {
  file: string;
  args: string[];
  cwd: string;
  /** The agent's own session id this launch uses (pre-assigned or resumed); null when learnt later or never. */
  agentSessionId: string | null;
  /** Text to type into the terminal once the agent shows its prompt, for agents that take no prompt on argv. */
  typePrompt: string | null;
}

export interface NewSessionInput {
  /** The project directory: the agent runs here. */
  cwd: string;
  /** The first prompt (see firstPrompt()) or a full resume prompt; null starts the agent bare. */
  prompt: string | null;
  /** A fresh UUID made by the caller; profiles that pre-assign their agent's session id use it. */
  newAgentSessionId: string;
  /** The shell/custom profiles' command template (`{prompt}`, `{id}` placeholders). */
  command?: string | undefined;
  env: Env;
}

export interface ResumeInput {
  /** The directory the agent's session was captured in (claude keys transcripts by it); else the project dir. */
  cwd: string;
  /** The captured agent session id; profiles that resume by id fail without it. */
  agentSessionId: string | null;
  /** The short resume prompt, or null to resume without one. */
  prompt: string | null;
  command?: string | undefined;
  env: Env;
}

/** The Mori session a text is about: its project dir and name locate the state files. */
export interface MoriSessionRef {
  projectDir: string;
  name: string;
}

/** What Mori knows about the agent's own session: its id (if any) and where it ran. */
export interface AgentSessionRef {
  agentSessionId: string | null;
  cwd: string;
}

/** Clues for learning an id the agent chose itself (codex): when it started, and what it printed on exit. */
export interface DiscoverInput {
  cwd: string;
  /** Epoch ms when the agent was launched; older sessions on disk are not ours. */
  startedAtMs: number;
  /** The tail of the terminal after the agent exited, when there is one. */
  exitText?: string | undefined;
  /** Agent session ids other Mori sessions already hold: never this launch's. */
  taken?: readonly string[] | undefined;
}

/**
 * How the agent's own session id is known:
 * - `pre-assigned`: Mori picks the UUID and passes it on the command line (claude, gemini).
 * - `discovered`: the agent picks it; Mori finds it on disk or in the exit text (codex).
 * - `none`: the agent has no addressable session (aider resumes per repo; shell).
 */
export type IdSource = 'pre-assigned' | 'discovered' | 'none';

/**
 * Regexes over the screen's text (DESIGN.md §4), checked in the order needs-input, retrying, error,
 * working, waiting.
 */
export interface ScreenPatterns {
  /**
   * A line that starts the latest turn (the agent's echo of the person's prompt). Only the screen from
   * the last such line down is read, so an error from an earlier turn does not stick. Absent: whole screen.
   */
  turnStart?: RegExp;
  needsInput: RegExp[];
  /** The agent retrying a request by itself (a countdown to its next attempt): read as working, not as an error to nudge. */
  retrying?: readonly RegExp[];
  error: RegExp[];
  working: RegExp[];
  waiting: RegExp[];
  /**
   * The Stop choice of a usage-limit dialog that holds the agent until a person answers (one line;
   * group 1 is the digit that picks it). Absent: the agent shows its limit without a dialog.
   */
  limitDialogStop?: RegExp;
}

/** A host the agent must reach to work; network probes (DESIGN.md §8) try these. */
export interface ApiHost {
  host: string;
  port: number;
}

/** The form of an agent's own session id (agent-id.ts checks ids against it before a command line holds one). */
export interface AgentIdForm {
  pattern: RegExp;
  /** The form in words, for messages. */
  words: string;
}

/** An agent's hooks (DESIGN.md §4 "Hooks"): the layer Mori gives a launch, and what each call reports. */
export interface AgentHooks {
  /** The layer for a launch with `args` in `env` (only read: the person's own setting a layer joins). */
  layer(args: readonly string[], place: HookPlace, env: Env): HookLayer;
  /** What a call of `event` with `payload` (null: unread, too big) reports. */
  report(event: string, payload: unknown): HookReport;
  /** Once the layer's files are written: why the agent would not read them (hooks are then off), else null. */
  refusal?(place: HookPlace): string | null;
  /** The usage limit a failed turn's payload (HookReport.stopFailure) reports, or null. */
  usageLimit?(event: string, payload: unknown, nowMs: number, localZone: string): UsageLimitSignal | null;
}

/** Where an agent shows its usage limit (DESIGN.md §4): its own limit lines on screen, and its record. */
export interface LimitSources {
  /** Its limit messages, each anchored at a line's start after LIMIT_LEAD (usage-limit/limit-detect.ts). */
  shapes: readonly RegExp[];
  /** Whether the row starting at `start` lies inside a tool's output as this CLI frames it (usage-limit/tool-output.ts). */
  inToolOutput(screen: string, start: number): boolean;
  /** Its own record of a session read at a turn's end: the file whose tail holds the outcome, and how to read that tail. */
  transcript?: {
    file(env: Env, agentSessionId: string, cwd: string): Promise<string | null>;
    usageLimit(tail: string, nowMs: number, localZone: string): UsageLimitSignal | null;
    /** Whether the tail holds an answer stamped after `sinceMs` (and not after `nowMs`): the agent went on after a reset by itself. */
    answeredSince?(tail: string, sinceMs: number, nowMs: number): boolean;
  };
}

/** What a status file the agent keeps of itself says: its activity and the conversation it is in. */
export interface AgentStatus {
  activity: AgentActivity;
  sessionId: string | null;
  /** When the file was written (epoch ms): older than the recorded id's last change, its id is stale. */
  writtenAtMs: number;
}

/** A conversation the CLI's own supervisor holds: the words saying so, and its conversation id and arguments to open it there. */
export interface HeldConversation {
  words: string;
  agentSessionId: string;
  /** Where it runs, as its supervisor records it; null: not said. */
  cwd: string | null;
  /** The arguments of the CLI's own program that open it in a terminal (`attach <short>`). */
  attachArgs: string[];
}

export interface AgentProfile {
  name: ProfileName;
  /** The name people know the agent by. */
  label: string;
  /** The executable looked up on PATH unless `MORI_AGENT_BIN_<NAME>` overrides it. */
  defaultBin: string;
  idSource: IdSource;
  newSession(input: NewSessionInput): Result<LaunchSpec>;
  /** The resume command; fails (code `failed`) when the profile resumes by id and none was captured. */
  resumeSession(input: ResumeInput): Result<LaunchSpec>;
  /** Whether the agent's own record of the session is on disk, so a resume can work. */
  transcriptExists(ref: AgentSessionRef, env: Env): Promise<boolean>;
  /**
   * Whether the agent took a prompt since `sinceMs`, by its own record on disk (its transcript,
   * rollout or chat is appended when a prompt is submitted; typing alone writes nothing). Used to
   * confirm typed input when a fast turn ends before its working screen can be seen. Absent: no record.
   */
  tookInputSince?(ref: AgentSessionRef, env: Env, sinceMs: number): Promise<boolean>;
  /** Learns the agent's session id after a launch; null when it cannot be known. */
  discoverSessionId(input: DiscoverInput, env: Env): Promise<string | null>;
  /** The short text typed into a live agent after an interruption; null when nothing should be typed. */
  nudge(session: MoriSessionRef): string | null;
  patterns: ScreenPatterns;
  /** How text is typed into it so it takes it (typing.ts): nudges, `mori send`, typed first prompts. */
  typing: TypingRules;
  /** Hosts the agent needs; empty for agents that need no network (shell). */
  apiHosts(env: Env): ApiHost[];
  /** The hosts the reachability probe tries while it runs (power/probe-targets.ts); empty: none. */
  probeHosts: readonly ApiHost[];
  /** How its program is installed, per its own documentation (said when the program is missing). */
  install: string;
  /**
   * Runs a command the person gives (shell, custom): a session needs one, the program is its first
   * word, and a check's approval covers it (checks/trust.ts).
   */
  takesCommand?: boolean;
  /** The form of its own session ids; absent: plain ids (agent-id.ts). */
  idForm?: AgentIdForm;
  /** Its hooks; absent: activity is read from the screen alone. */
  hooks?: AgentHooks;
  /** Where it shows a usage limit; absent: it has none Mori can read. */
  limits?: LimitSources;
  /** Its own status file, read beside the screen; absent: none. */
  status?: { find(env: Env, agentSessionId: string, pid: number): Promise<AgentStatus | null> };
  /** Its own record of each request's tokens (usage/usage-record.ts); absent: Mori shows no usage for it. */
  usage?: UsageSource;
  /**
   * A supervisor of the CLI's own that may hold a conversation (DESIGN.md §5 "Agents that supervise
   * themselves"): `holding` says so, and how to open it there, when one of its live sessions holds
   * `agentSessionId` (its id or the supervisor's short id; a resume would start a copy), else null. Absent: none.
   */
  ownSupervisor?: { holding(env: Env, agentSessionId: string): Promise<HeldConversation | null> };
  /** The permission mode its record says the conversation runs in ("auto", "default", "bypass"…), or null; absent: none kept. */
  permissionMode?(ref: AgentSessionRef, env: Env): Promise<string | null>;
  /**
   * The CLI's own config and data dirs and files (absolute, after the env overrides it honours), which
   * a sandboxed session binds read-write (DESIGN.md §11 "Sandbox"); absent: none.
   */
  configPaths?(env: Env): string[];
  /**
   * What a bubblewrap sandbox changes for this CLI (DESIGN.md §11 "Sandbox"): variables added to its
   * environment (before configPaths is asked) and files copied once into their new place when absent
   * there; absent: nothing.
   */
  sandboxed?(env: Env): { env: Record<string, string>; copyOnce: readonly { from: string; to: string }[] };
}
