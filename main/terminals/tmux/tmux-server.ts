// The private tmux server behind the tmux backend (DESIGN.md §6): its socket name (`tmux -L mori`
// unless MORI_TMUX_SOCKET or an option says otherwise), running one-shot tmux commands, keeping
// apart the operations tmux 3.3a cannot run while a control client connects, detecting tmux and
// its version, and starting the server in its own systemd user scope where that works, so
// a logout or the app's own cgroup going away does not take the agents with it.
// Runs in the supervisor's process.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { BackendAvailability } from '../../../common/terminal.js';
import { parseTmuxVersion, tmuxUnusableReason, type TmuxVersion } from './tmux-version.js';
import { background } from '../../background.js';

export const DEFAULT_TMUX_SOCKET = 'mori';
/** One-shot tmux commands answer in milliseconds; this only catches a wedged server. */
const TMUX_COMMAND_TIMEOUT_MS = 10_000;
/** systemd-run answers at once when the user manager is reachable; waiting longer means it is not. */
const SYSTEMD_PROBE_TIMEOUT_MS = 3000;

export interface TmuxServerOptions {
  /** Socket name for `tmux -L`; default $MORI_TMUX_SOCKET, else "mori". */
  socketName?: string;
  /** The tmux binary; default "tmux" on PATH. */
  tmuxPath?: string;
  /** Start the server in a systemd user scope when possible (default true). */
  useSystemdScope?: boolean;
}

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Our environment without the variables that make tmux think it runs nested in another tmux. */
export function tmuxClientEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.TMUX;
  delete env.TMUX_PANE;
  return env;
}

export function execTool(file: string, args: string[], timeoutMs = TMUX_COMMAND_TIMEOUT_MS): Promise<ExecResult> {
  return new Promise((resolve) => {
    execFile(file, args, { env: tmuxClientEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : 127) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr || (error && code === 127 ? error.message : '')) });
    });
  });
}

/** The tail of each socket's queue of exclusive operations (see TmuxServer.exclusive). */
const exclusiveTails = new Map<string, Promise<unknown>>();

let systemdScopeWorks: Promise<boolean> | null = null;

/** Whether `systemd-run --user --scope` works here (a user manager on the bus); probed once. */
export function canUseSystemdScope(): Promise<boolean> {
  systemdScopeWorks ??= execTool('systemd-run', ['--user', '--scope', '--quiet', '--', 'true'], SYSTEMD_PROBE_TIMEOUT_MS).then((r) => r.code === 0);
  return systemdScopeWorks;
}

export class TmuxServer {
  readonly socketName: string;
  readonly tmuxPath: string;
  private readonly useSystemdScope: boolean;
  private version: TmuxVersion | null = null;

  constructor(options: TmuxServerOptions = {}) {
    this.socketName = options.socketName ?? process.env.MORI_TMUX_SOCKET ?? DEFAULT_TMUX_SOCKET;
    this.tmuxPath = options.tmuxPath ?? 'tmux';
    this.useSystemdScope = options.useSystemdScope ?? true;
  }

  /** Whether tmux is here and new enough; the reason says why not. */
  async detect(): Promise<BackendAvailability> {
    const r = await execTool(this.tmuxPath, ['-V']);
    if (r.code !== 0) {
      return { kind: 'tmux', available: false, version: null, reason: `tmux is not installed or does not run (${(r.stderr || r.stdout).trim().slice(0, 200)})` };
    }
    const version = parseTmuxVersion(r.stdout);
    const reason = tmuxUnusableReason(version, r.stdout);
    this.version = version;
    return { kind: 'tmux', available: reason === null, version: version?.text ?? null, reason };
  }

  /** The detected version (after detect()). */
  get detectedVersion(): TmuxVersion | null {
    return this.version;
  }

  /**
   * `tmux -u -L <socket> -f /dev/null`: the private server ignores the person's own tmux.conf. `-u`:
   * the client speaks UTF-8 whatever the locale says. Without it, a client with no UTF-8 locale
   * (`env -i`, `LANG=C`) gets a tab in a `-F` format as `_` (tmux 3.3a), and every pane line Mori
   * parses (pane-format.ts), from one-shot commands and the control client alike, reads as nothing.
   */
  baseArgs(): string[] {
    return ['-u', '-L', this.socketName, '-f', '/dev/null'];
  }

  run(args: string[]): Promise<ExecResult> {
    return execTool(this.tmuxPath, [...this.baseArgs(), ...args]);
  }

  async isRunning(): Promise<boolean> {
    return (await this.run(['list-sessions', '-F', '#{session_name}'])).code === 0;
  }

  /**
   * How to start a tmux client that may start the server: [file, args]. When the server is not
   * running yet and systemd works, the client (and so the server it forks) goes into a user scope.
   */
  async clientCommand(args: string[]): Promise<[string, string[]]> {
    const direct: [string, string[]] = [this.tmuxPath, [...this.baseArgs(), ...args]];
    if (!this.useSystemdScope || (await this.isRunning()) || !(await canUseSystemdScope())) return direct;
    return ['systemd-run', ['--user', '--scope', '--quiet', '--collect', '--', this.tmuxPath, ...this.baseArgs(), ...args]];
  }

  /** The TERM the panes get: tmux's own entry where this machine knows it. */
  defaultTerminal(): string {
    const known = ['/usr/share/terminfo', '/lib/terminfo', '/usr/lib/terminfo', '/etc/terminfo'].some((d) => existsSync(`${d}/t/tmux-256color`));
    return known ? 'tmux-256color' : 'screen-256color';
  }

  /**
   * Runs `fn` when no other exclusive operation on this socket (in this process) is under way.
   * tmux 3.3a crashes when it notifies control clients (a session created or closed, a client
   * attaching or leaving, a window resized) while another control client is still connecting
   * (fixed upstream after 3.3a: "Do not notify clients if not fully initialized"). So connecting a
   * control client, and everything that makes such a notification, goes through here.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const before = exclusiveTails.get(this.socketName) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    exclusiveTails.set(this.socketName, tail);
    background(tail.then(() => {
      if (exclusiveTails.get(this.socketName) === tail) exclusiveTails.delete(this.socketName);
    }), 'tmux command queue');
    return run;
  }

  async killServer(): Promise<void> {
    await this.run(['kill-server']);
  }
}
