// What Mori asks tmux about its panes, and how the answers read: the session name for a terminal
// id, the `-F` formats of a pane's identity and fate, and pure parsers for them. Fields are
// tab-separated; tmux prints a tab as itself only to a client that speaks UTF-8, which every Mori
// client does (`-u`, see TmuxServer.baseArgs). Pure; runs in the supervisor's process.
import type { TerminalExit, TerminalSize } from '../../../common/terminal.js';
import { signalName } from '../../os/signal-name.js';

export const SESSION_PREFIX = 'mori-';

export const tmuxSessionName = (id: string): string => `${SESSION_PREFIX}${id}`;

/**
 * The pane's fate, watched by the subscription and read by `display`. It holds the status too, so
 * the subscription changes again (and the exit is read again) once tmux knows the status.
 */
export const FATE_FORMAT = '#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}';

/** The control-mode subscription that watches FATE_FORMAT (session-wide: one pane per session). */
export const FATE_SUBSCRIPTION = 'mori-dead';

/** One pane per line: what list() and open() need to know of it (parsePaneLine reads it). */
export const PANE_FORMAT =
  '#{session_name}\t#{pane_id}\t#{pane_pid}\t#{pane_dead}\t#{pane_dead_status}\t#{pane_dead_signal}\t#{window_width}\t#{window_height}\t#{session_created}\t#{pane_tty}';

/** Exit of a dead pane from `#{pane_dead_status}` and `#{pane_dead_signal}`. */
export function paneExit(status: string, signal: string): TerminalExit {
  const sig = Number(signal);
  if (signal !== '' && Number.isFinite(sig) && sig > 0) return { code: null, signal: signalName(sig) };
  const code = Number(status);
  return { code: status !== '' && Number.isFinite(code) ? code : null, signal: null };
}

/**
 * What a pane's `#{pane_dead}`, `#{pane_dead_status}` and `#{pane_dead_signal}` say. `exiting`: the
 * pty is closed (pane_dead is 1) but tmux has not reaped the program yet, so neither status nor
 * signal is known; asking again shortly gives the real exit.
 */
export type PaneFate = { state: 'running' } | { state: 'exiting' } | { state: 'dead'; exit: TerminalExit };

export function paneFate(dead: string, status: string, signal: string): PaneFate {
  if (dead !== '1') return { state: 'running' };
  if (status === '' && signal === '') return { state: 'exiting' };
  return { state: 'dead', exit: paneExit(status, signal) };
}

/** Parses a FATE_FORMAT value (`dead:status:signal`); null when it is not one. */
export function parseFate(value: string): PaneFate | null {
  const parts = value.trim().split(':');
  if (parts.length !== 3) return null;
  const [dead = '', status = '', signal = ''] = parts;
  return paneFate(dead, status, signal);
}

export interface PaneInfo {
  session: string;
  pane: string;
  pid: number;
  dead: boolean;
  exit: TerminalExit | null;
  size: TerminalSize;
  created: Date | null;
  /** The pane's terminal, `/dev/pts/N`. */
  tty: string;
}

/** Parses one PANE_FORMAT line; null when it is not one. */
export function parsePaneLine(line: string): PaneInfo | null {
  const [session, pane, pid, dead, status = '', signal = '', w, h, created, tty = ''] = line.split('\t');
  if (!session || !pane?.startsWith('%')) return null;
  const fate = paneFate(dead ?? '', status, signal);
  return {
    session,
    pane,
    pid: Number(pid),
    dead: fate.state !== 'running',
    exit: fate.state === 'dead' ? fate.exit : null,
    size: { cols: Number(w), rows: Number(h) },
    created: created ? new Date(Number(created) * 1000) : null,
    tty,
  };
}
