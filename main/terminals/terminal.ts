// The one interface the supervisor and the UI bridge use for every terminal, whichever backend
// holds the pty (DESIGN.md §6), and the smaller interface each backend implements underneath.
// Types only; runs in the supervisor's process.
import type { Result } from '../../common/result.js';
import type { TerminalBackendKind, TerminalExit, TerminalFrame, TerminalSize } from '../../common/terminal.js';

export interface SpawnOptions {
  /** The Mori session id (a UUID, or any [A-Za-z0-9_-] string); names the tmux session `mori-<id>`. */
  id: string;
  command: string;
  args: string[];
  cwd: string;
  /** The program's whole environment (the backend adds MORI_TERMINAL_ID to find its processes). */
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Where the transcript goes (`<stateDir>/transcript`); null keeps none. */
  transcriptDir: string | null;
  /** Transcript budget in bytes (default 20 MB). */
  transcriptMaxBytes?: number;
}

/**
 * Something that went wrong beside the program, which keeps running: for the supervisor to report.
 * `transcript-write`: output could not be written to the transcript (disk full, directory gone);
 * the mirror and views still get it. Reported once per run of failures.
 */
export interface TerminalProblem {
  kind: 'transcript-write';
  message: string;
}

/** A view (a UI terminal, `mori attach`) receiving frames: one snapshot, then output. */
export interface FrameSink {
  frame(frame: TerminalFrame): void;
}

/** One view's connection to a terminal, with its own flow-control account. */
export interface Attachment {
  readonly id: string;
  /** Resolves once the snapshot frame was delivered. */
  readonly ready: Promise<void>;
  /** The view rendered `chars` characters of output frames (not of the snapshot). */
  ack(chars: number): void;
  /**
   * Whether the view holds its agent back (the person sees it). A view that does not is never
   * waited for: past the high watermark it is sent nothing more, and a snapshot when it holds again.
   */
  hold(holding: boolean): void;
  detach(): void;
}

export interface Terminal {
  readonly id: string;
  readonly backend: TerminalBackendKind;
  /** The program's pid (tmux: the pane's process). */
  readonly pid: number;
  readonly size: TerminalSize;
  /** Set once the program ended. */
  readonly exit: TerminalExit | null;
  readonly transcriptDir: string | null;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /**
   * Ends the program and everything it started (process group, setsid children): SIGHUP and
   * SIGTERM, SIGKILL after 2 s. After the program ended on its own, ends what it left running.
   */
  kill(): Promise<TerminalExit>;
  /** Output, batched every few ms. Returns an unsubscribe function. */
  onData(listener: (data: string) => void): () => void;
  /** Called once, after the last output. Called at once if the program has already ended. */
  onExit(listener: (exit: TerminalExit) => void): () => void;
  /** Problems beside the program (see TerminalProblem). Returns an unsubscribe function. */
  onProblem(listener: (problem: TerminalProblem) => void): () => void;
  /** A new view, holding its agent back unless `holding` is false (see Attachment.hold). */
  attach(view: FrameSink, options?: { holding?: boolean }): Attachment;
  detach(view: FrameSink): void;
  /** The serialized screen (with the mirror's scrollback), as a new view would start from. */
  snapshot(): Promise<string>;
  /** The visible screen as plain text, for activity detection. */
  screenText(): Promise<string>;
  /**
   * Lets go of the terminal without ending the program where the backend allows it (tmux: the
   * session keeps running, a later process re-attaches); the direct backend kills it.
   */
  dispose(): Promise<void>;
}

export interface TerminalBackend {
  readonly kind: TerminalBackendKind;
  spawn(options: SpawnOptions): Promise<Result<Terminal>>;
}

/** A terminal that outlived the process that started it (tmux backend). */
export interface PersistentSessionInfo {
  id: string;
  pid: number;
  alive: boolean;
  exit: TerminalExit | null;
  size: TerminalSize;
  createdAt: Date | null;
}

export interface ReattachOptions {
  transcriptDir: string | null;
  transcriptMaxBytes?: number;
}

export interface PersistentTerminalBackend extends TerminalBackend {
  /** Mori's sessions on this backend's server, alive or with a dead program still recorded. */
  list(): Promise<PersistentSessionInfo[]>;
  /** Attaches to a session started by another (possibly dead) process. */
  reattach(id: string, options: ReattachOptions): Promise<Result<Terminal>>;
  /** The session exists and its program is still running. */
  isAlive(id: string): Promise<boolean>;
}

/** What a backend gives the shared terminal plumbing: a running program behind a pty. */
export interface PtySource {
  readonly pid: number;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Stop reading output (back-pressure reaches the program); resume undoes it. */
  pause(): void;
  resume(): void;
  onData(listener: (data: string) => void): void;
  /**
   * The output as the program wrote it, before decoding: the transcript keeps these bytes as they
   * are, with no second encoding. A source that only has text (tmux's control mode) leaves it out,
   * and the text goes to the transcript instead.
   */
  onBytes?(listener: (bytes: Buffer) => void): void;
  onExit(listener: (exit: TerminalExit) => void): void;
  /** Ends the program's whole process tree (or, once it ended, what it left); the exit arrives through onExit. */
  kill(): Promise<void>;
  /** Stops holding the pty: tmux detaches (the program runs on), direct kills. */
  release(): Promise<void>;
}

/** Session ids become tmux session names and env values: keep them to a safe alphabet. */
export const TERMINAL_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
