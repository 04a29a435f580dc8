// Starting a tmux session for a new terminal. No environment value may reach any process's
// arguments (`/proc/*/cmdline` is world-readable, and systemd-run may log them; a tmux server even
// keeps the argv of the client that started it for its whole life). So the session is created,
// with the server's options, around a placeholder that waits silently; then the owner's control
// client replaces the placeholder with the program, environment and all, through its stdin
// (respawnCommand). Runs in the supervisor's process.
import type { TerminalSize } from '../../../common/terminal.js';
import { formatLiteral } from './tmux-format.js';
import { tmuxWord } from './tmux-protocol.js';
import { execTool, type ExecResult, type TmuxServer } from './tmux-server.js';
import { versionAtLeast } from './tmux-version.js';

/** tmux keeps this much history per pane: what a re-attaching process can still load. */
export const TMUX_HISTORY_LIMIT = 10_000;

/**
 * The session's first program, until the owner replaces it: waits silently. Should the owner die
 * before that (a daemon killed mid-launch), it ends by itself after a minute (past any launch on a
 * loaded machine) with a failure's status: the next daemon, which found it running and took it for
 * the agent, reads a crash and resumes the session. Status 0 would read as the agent's own finish.
 */
export const PLACEHOLDER = ['sh', '-c', 'sleep 60; exit 1'];

/** What replaces a new session's placeholder: the program, where it runs, its whole environment. */
export interface Launch {
  cwd: string;
  env: Record<string, string>;
  program: string[];
}

export interface NewSession {
  name: string;
  size: TerminalSize;
  cwd: string;
  /** The program's environment: every other variable of the server's global one is dropped. */
  env: Record<string, string>;
  historyLimit: number;
}

/** The server-wide options, then the session around its placeholder, in one tmux client. */
export async function createSession(server: TmuxServer, session: NewSession): Promise<ExecResult> {
  const version = server.detectedVersion;
  // Server-wide options go first: the pane must be born with them (TERM, remain-on-exit).
  const setup = [
    // The server stays up with no sessions: a session ending must not race the next one's start
    // against a server that is shutting down ("server exited unexpectedly").
    ['set-option', '-s', 'exit-empty', 'off'],
    // Programs learn when their view gains or loses focus (Claude Code warns on every start without).
    ['set-option', '-s', 'focus-events', 'on'],
    ['set-option', '-g', 'remain-on-exit', 'on'],
    ...(version && versionAtLeast(version, 3, 3) ? [['set-option', '-g', 'remain-on-exit-format', '']] : []),
    ['set-option', '-g', 'status', 'off'],
    // Window names mean nothing here, and each rename notifies every control client.
    ['set-option', '-g', 'automatic-rename', 'off'],
    ['set-option', '-g', 'history-limit', String(session.historyLimit)],
    ['set-option', '-g', 'default-terminal', server.defaultTerminal()],
    // A pane starts from the server's global environment (the supervisor's own, when it started the
    // server) plus -e: drop every variable the program is not given, so none leaks into it by name.
    ...Object.keys(process.env).filter((k) => !(k in session.env)).map((k) => ['set-environment', '-g', '-u', k]),
  ];
  const { name, size } = session;
  const create = ['new-session', '-d', '-s', name, '-x', String(size.cols), '-y', String(size.rows), '-c', formatLiteral(session.cwd), '--', ...PLACEHOLDER];
  // Views, not tmux clients, decide the size. Set per window after new-session: tmux 3.3a's
  // server crashes on a second new-session while the global value is `manual`.
  const after = ['set-option', '-w', '-t', `=${name}:`, 'window-size', 'manual'];
  const [file, args] = await server.clientCommand([...setup.flatMap((c) => [...c, ';']), ...create, ';', ...after]);
  return server.exclusive(() => execTool(file, args));
}

/** The program's words: a command without arguments is one shell word (tmux runs a lone word through `sh -c`). */
export const programWords = (command: string, args: string[]): string[] => (args.length > 0 ? [command, ...args] : [shellQuote(command)]);

/** The control-mode command that kills the placeholder and starts the program in its place. */
export function respawnCommand(session: string, launch: Launch): string {
  const env = Object.entries(launch.env).map(([k, v]) => `-e ${tmuxWord(`${k}=${v}`)}`);
  return ['respawn-pane', '-k', '-t', tmuxWord(`=${session}:`), '-c', tmuxWord(formatLiteral(launch.cwd)), ...env, '--', ...launch.program.map(tmuxWord)].join(' ');
}

/** Quotes one word for `sh -c` (tmux runs a lone command string through the shell). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
