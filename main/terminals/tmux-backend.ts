// The tmux backend (DESIGN.md §6): one session `mori-<id>` per terminal on a private server,
// driven through a control-mode client. The program outlives this process; a later process lists
// the sessions and re-attaches, loading history with `capture-pane`. `remain-on-exit` keeps a dead
// pane so its exit status can be read. Runs in the supervisor's process.
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fail, ok, type Result } from '../../common/result.js';
import type { BackendAvailability, TerminalExit, TerminalSize } from '../../common/terminal.js';
import { clampSize } from '../../common/terminal.js';
import { ManagedTerminal } from './managed-terminal.js';
import { killTree, TERMINAL_MARKER_ENV } from './process-tree.js';
import { TmuxControlClient } from './tmux-control-client.js';
import { hexKeys } from './tmux-protocol.js';
import { execTool, TmuxServer, type TmuxServerOptions } from './tmux-server.js';
import { versionAtLeast } from './tmux-version.js';
import {
  TERMINAL_ID_PATTERN,
  type PersistentSessionInfo,
  type PersistentTerminalBackend,
  type PtySource,
  type ReattachOptions,
  type SpawnOptions,
  type Terminal,
} from './terminal.js';

/** tmux keeps this much history per pane: what a re-attaching process can still load. */
export const TMUX_HISTORY_LIMIT = 10_000;
/** Input bytes per `send-keys -H` command: keeps each command line short (3 chars per byte). */
const SEND_KEYS_CHUNK_BYTES = 512;
const SESSION_PREFIX = 'mori-';
/** After losing the control client, look this often, this many times, for the pane to die. */
const CLIENT_LOST_POLL_MS = 100;
const CLIENT_LOST_POLLS = 30;
const SUBSCRIPTION = 'mori-dead';

export const tmuxSessionName = (id: string): string => `${SESSION_PREFIX}${id}`;

const signalName = (n: number): string => Object.entries(constants.signals).find(([, v]) => v === n)?.[0] ?? `SIG${n}`;

/** Exit of a dead pane from `#{pane_dead_status}` and `#{pane_dead_signal}`. */
export function paneExit(status: string, signal: string): TerminalExit {
  const sig = Number(signal);
  if (signal !== '' && Number.isFinite(sig) && sig > 0) return { code: null, signal: signalName(sig) };
  const code = Number(status);
  return { code: status !== '' && Number.isFinite(code) ? code : null, signal: null };
}

const PANE_FORMAT = '#{session_name}\t#{pane_id}\t#{pane_pid}\t#{pane_dead}\t#{pane_dead_status}\t#{pane_dead_signal}\t#{window_width}\t#{window_height}\t#{session_created}';

interface PaneInfo {
  session: string;
  pane: string;
  pid: number;
  dead: boolean;
  exit: TerminalExit | null;
  size: TerminalSize;
  created: Date | null;
}

export function parsePaneLine(line: string): PaneInfo | null {
  const [session, pane, pid, dead, status = '', signal = '', w, h, created] = line.split('\t');
  if (!session || !pane?.startsWith('%')) return null;
  const isDead = dead === '1';
  return {
    session,
    pane,
    pid: Number(pid),
    dead: isDead,
    exit: isDead ? paneExit(status, signal) : null,
    size: { cols: Number(w), rows: Number(h) },
    created: created ? new Date(Number(created) * 1000) : null,
  };
}

/** Turns `capture-pane -e -p` lines plus the cursor into output that redraws them on a blank screen. */
export function captureToScreen(lines: string[], cursor: { x: number; y: number } | null): string {
  if (lines.length === 0) return '';
  // Each captured line starts from default attributes; say so, since we join them into one stream.
  let out = lines.map((l) => `\x1b[0m${l}`).join('\r\n') + '\x1b[0m';
  if (cursor) out += `\x1b[${cursor.y + 1};${cursor.x + 1}H`;
  return out;
}

/** Output remembered per pane for missingTail(): a few screens of text. */
const TAIL_KEEP_CHARS = 16_384;

const stripEscapes = (s: string): string =>
  s.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-Z\\-_]|\r/g, '');

/**
 * The lines of the final screen that came after the output we saw, as output (styled). Finds the
 * last line we saw on the screen, bottom up; nothing when it is not there (the screen was redrawn).
 */
export function missingTail(seen: string, plainScreen: string[], styledScreen: string[], rows: number): string {
  const screen = [...plainScreen];
  while (screen.length > 0 && (screen.at(-1) ?? '').trim() === '') screen.pop();
  const seenLines = stripEscapes(seen).split('\n').map((l) => l.trimEnd());
  const endsWithNewline = seenLines.at(-1) === '';
  if (endsWithNewline) seenLines.pop();
  // Match the last few lines we saw, not one: a repeated line alone would match too early.
  const want = seenLines.slice(-MATCH_LINES);
  // Nothing seen yet: everything on the screen is new.
  if (want.every((l) => l === '')) return screen.length === 0 ? '' : styledScreen.slice(0, screen.length).join('\r\n') + '\r\n';
  const lastWanted = want.length - 1;
  for (let end = screen.length - 1; end >= lastWanted; end--) {
    const matches = want.every((w, k) => {
      const line = (screen[end - lastWanted + k] ?? '').trimEnd();
      return k === lastWanted && !endsWithNewline ? line.startsWith(w) : line === w;
    });
    if (!matches) continue;
    const rest = styledScreen.slice(end + 1, screen.length);
    if (rest.length === 0) return '';
    const styledRest = rest.join('\r\n') + '\r\n';
    return endsWithNewline ? styledRest : `\r\n${styledRest}`;
  }
  // What we saw scrolled out of the history: all of it is newer than our last output. (A screen
  // that was redrawn in place has no history beyond the screen, and gets nothing.)
  if (screen.length > rows) return '\r\n' + styledScreen.slice(0, screen.length).join('\r\n') + '\r\n';
  return '';
}

/** Lines of seen output that must match the captured history in missingTail(). */
const MATCH_LINES = 3;

export interface TmuxBackendOptions extends TmuxServerOptions {
  historyLimit?: number;
}

class TmuxPtySource implements PtySource {
  private readonly dataListeners: ((data: string) => void)[] = [];
  private readonly exitListeners: ((exit: TerminalExit) => void)[] = [];
  private exitInfo: TerminalExit | null = null;
  private released = false;
  /** The last output, to find what tmux failed to send when the program exited. */
  private tail = '';
  /** Output before this turns false is already in the captured screen. */
  syncing = true;
  paneId: string | null = null;
  pid = 0;
  rows = 24;
  client!: TmuxControlClient;

  constructor(
    private readonly server: TmuxServer,
    readonly sessionName: string,
    private readonly marker: string,
  ) {}

  connect(file: string, args: string[]): void {
    this.client = new TmuxControlClient(file, args, {
      output: (pane, data) => {
        if (pane !== this.paneId || this.syncing) return;
        this.emitData(data);
      },
      subscription: (name, value) => {
        if (name === SUBSCRIPTION && value === '1') void this.readExit();
      },
      // tmux paused the pane for us (pause-after); we never ask for that, but resume if it happens.
      pause: (pane) => void this.client.command(`refresh-client -A '${pane}:continue'`),
      exit: () => {
        if (!this.released) void this.clientLost();
      },
    });
  }

  write(data: string): void {
    if (!this.paneId || this.exitInfo) return;
    const keys = hexKeys(data);
    for (let i = 0; i < keys.length; i += SEND_KEYS_CHUNK_BYTES) {
      void this.client.command(`send-keys -t ${this.paneId} -H ${keys.slice(i, i + SEND_KEYS_CHUNK_BYTES).join(' ')}`);
    }
  }

  resize(cols: number, rows: number): void {
    this.rows = rows;
    if (this.paneId) void this.client.command(`resize-window -t ${this.paneId} -x ${cols} -y ${rows}`);
  }

  pause(): void {
    this.client.pause();
  }

  resume(): void {
    this.client.resume();
  }

  onData(listener: (data: string) => void): void {
    this.dataListeners.push(listener);
  }

  onExit(listener: (exit: TerminalExit) => void): void {
    this.exitListeners.push(listener);
    if (this.exitInfo) {
      const exit = this.exitInfo;
      queueMicrotask(() => listener(exit));
    }
  }

  async kill(): Promise<void> {
    if (this.exitInfo) return;
    await killTree(this.pid || null, this.marker);
  }

  async release(): Promise<void> {
    this.released = true;
    await this.client.close();
  }

  /** Output that is already on the screen when we attach (it counts as seen). */
  seen(data: string): void {
    this.tail = (this.tail + data).slice(-TAIL_KEEP_CHARS);
  }

  private emitData(data: string): void {
    this.tail = (this.tail + data).slice(-TAIL_KEEP_CHARS);
    for (const l of this.dataListeners) l(data);
  }

  async readExit(): Promise<void> {
    if (this.exitInfo || !this.paneId) return;
    const r = await this.client.command(`display -p -t ${this.paneId} '#{pane_dead}\t#{pane_dead_status}\t#{pane_dead_signal}'`);
    const [dead, status = '', signal = ''] = (r.lines[0] ?? '').split('\t');
    if (r.ok && dead !== '1') return;
    if (r.ok) {
      // tmux 3.3a does not send a pane's last read to control clients when the program exits with
      // it: recover those lines from the final screen.
      const plain = await this.client.command(`capture-pane -p -S - -t ${this.paneId}`);
      const styled = await this.client.command(`capture-pane -p -e -S - -t ${this.paneId}`);
      if (plain.ok && styled.ok) {
        const missing = missingTail(this.tail, plain.lines, styled.lines, this.rows);
        if (missing) this.emitData(missing);
      }
    }
    this.reportExit(r.ok ? paneExit(status, signal) : { code: null, signal: null });
    // The exit is read and reported: the dead session has done its job.
    await this.server.run(['kill-session', '-t', `=${this.sessionName}`]);
    this.released = true;
    await this.client.close();
  }

  /** Our control client went away on its own: read the pane's fate with a one-shot command. */
  private async clientLost(): Promise<void> {
    for (let attempt = 0; attempt < CLIENT_LOST_POLLS && !this.exitInfo; attempt++) {
      const r = await this.server.run(['display', '-p', '-t', this.paneId ?? `=${this.sessionName}:`, '#{pane_dead}\t#{pane_dead_status}\t#{pane_dead_signal}']);
      const [dead, status = '', signal = ''] = r.stdout.trim().split('\t');
      if (r.code !== 0) break;
      if (dead === '1') {
        this.reportExit(paneExit(status, signal));
        await this.server.run(['kill-session', '-t', `=${this.sessionName}`]);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, CLIENT_LOST_POLL_MS));
    }
    this.reportExit({ code: null, signal: null });
  }

  reportExit(exit: TerminalExit): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    for (const l of this.exitListeners) l(exit);
  }
}

export class TmuxBackend implements PersistentTerminalBackend {
  readonly kind = 'tmux' as const;
  readonly server: TmuxServer;
  private readonly historyLimit: number;
  private availability: Promise<BackendAvailability> | null = null;

  constructor(options: TmuxBackendOptions = {}) {
    this.server = new TmuxServer(options);
    this.historyLimit = options.historyLimit ?? TMUX_HISTORY_LIMIT;
  }

  /** tmux present and new enough (probed once); `reason` says why not. */
  detect(): Promise<BackendAvailability> {
    this.availability ??= this.server.detect();
    return this.availability;
  }

  async spawn(options: SpawnOptions): Promise<Result<Terminal>> {
    if (!TERMINAL_ID_PATTERN.test(options.id)) return fail('usage', `invalid terminal id "${options.id}"`);
    const available = await this.detect();
    if (!available.available) return fail('failed', available.reason ?? 'tmux is not usable');
    if (!existsSync(options.cwd)) return fail('not-found', `working directory ${options.cwd} does not exist`);
    const name = tmuxSessionName(options.id);
    if ((await this.server.run(['has-session', '-t', `=${name}`])).code === 0) return fail('conflict', `tmux session ${name} already exists`);
    const size = clampSize({ cols: options.cols, rows: options.rows });
    const marker = `tmux:${options.id}`;
    const env = { ...options.env, [TERMINAL_MARKER_ENV]: marker };
    const version = this.server.detectedVersion;
    // Server-wide options go first: the pane must be born with them (TERM, remain-on-exit).
    const setup = [
      // The server stays up with no sessions: a session ending must not race the next one's start
      // against a server that is shutting down ("server exited unexpectedly").
      ['set-option', '-s', 'exit-empty', 'off'],
      ['set-option', '-g', 'remain-on-exit', 'on'],
      ...(version && versionAtLeast(version, 3, 3) ? [['set-option', '-g', 'remain-on-exit-format', '']] : []),
      ['set-option', '-g', 'status', 'off'],
      ['set-option', '-g', 'history-limit', String(this.historyLimit)],
      ['set-option', '-g', 'default-terminal', this.server.defaultTerminal()],
    ];
    const program = options.args.length > 0 ? [options.command, ...options.args] : [shellQuote(options.command)];
    const create = [
      'new-session', '-d', '-s', name, '-x', String(size.cols), '-y', String(size.rows), '-c', options.cwd,
      ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
      '--', ...program,
    ];
    // Views, not tmux clients, decide the size. Set per window after new-session: tmux 3.3a's
    // server crashes on a second new-session while the global value is `manual`.
    const after = ['set-option', '-w', '-t', `=${name}:`, 'window-size', 'manual'];
    const [file, args] = await this.server.clientCommand([...setup.flatMap((c) => [...c, ';']), ...create, ';', ...after]);
    const created = await execTool(file, args);
    if (created.code !== 0) return fail('failed', `tmux could not start ${options.command}: ${(created.stderr || created.stdout).trim()}`);
    return this.open(options.id, { transcriptDir: options.transcriptDir, ...(options.transcriptMaxBytes ? { transcriptMaxBytes: options.transcriptMaxBytes } : {}) }, true);
  }

  reattach(id: string, options: ReattachOptions): Promise<Result<Terminal>> {
    if (!TERMINAL_ID_PATTERN.test(id)) return Promise.resolve(fail('usage', `invalid terminal id "${id}"`));
    return this.open(id, options, false);
  }

  async list(): Promise<PersistentSessionInfo[]> {
    const r = await this.server.run(['list-panes', '-a', '-F', PANE_FORMAT]);
    if (r.code !== 0) return [];
    return r.stdout
      .split('\n')
      .map(parsePaneLine)
      .filter((p): p is PaneInfo => p !== null && p.session.startsWith(SESSION_PREFIX))
      .map((p) => ({ id: p.session.slice(SESSION_PREFIX.length), pid: p.pid, alive: !p.dead, exit: p.exit, size: p.size, createdAt: p.created }));
  }

  async isAlive(id: string): Promise<boolean> {
    return (await this.list()).some((s) => s.id === id && s.alive);
  }

  private async open(id: string, options: ReattachOptions, fresh: boolean): Promise<Result<Terminal>> {
    const name = tmuxSessionName(id);
    const source = new TmuxPtySource(this.server, name, `tmux:${id}`);
    source.connect(this.server.tmuxPath, [...this.server.baseArgs(), '-C', 'attach-session', '-t', `=${name}`]);
    await source.client.ready;
    const info = await source.client.command(`display -p -t '=${name}:' '${PANE_FORMAT}'`);
    const pane = info.ok ? parsePaneLine(info.lines[0] ?? '') : null;
    if (!pane) {
      await source.release();
      return fail('not-found', `no tmux session ${name} on socket ${this.server.socketName}`);
    }
    source.paneId = pane.pane;
    source.pid = pane.pid;
    source.rows = pane.size.rows;
    // One pane per session: a session-wide subscription watches it (tmux 3.3a never reports pane-scoped ones).
    void source.client.command(`refresh-client -B '${SUBSCRIPTION}::#{pane_dead}'`);
    // The cursor, then the whole history and screen. Output that arrived before the capture is in it;
    // output after it streams on, so nothing is lost or doubled.
    const cursorReply = source.client.command(`display -p -t ${pane.pane} '#{cursor_x} #{cursor_y}'`);
    const capture = await source.client.command(`capture-pane -p -e -S - -E - -t ${pane.pane}`, () => {
      source.syncing = false;
    });
    const [cx, cy] = ((await cursorReply).lines[0] ?? '').split(' ').map(Number);
    const cursor = Number.isFinite(cx) && Number.isFinite(cy) ? { x: cx as number, y: cy as number } : null;
    const screen = capture.ok ? captureToScreen(capture.lines, cursor) : '';
    source.seen(capture.ok ? trimBlankTail(capture.lines).join('\n') + '\n' : '');
    const terminal = new ManagedTerminal(source, {
      id,
      backend: 'tmux',
      size: pane.size,
      transcriptDir: options.transcriptDir,
      ...(options.transcriptMaxBytes ? { transcriptMaxBytes: options.transcriptMaxBytes } : {}),
      ...(fresh ? { initialOutput: screen } : { initialScreen: screen }),
    });
    if (pane.dead) void source.readExit();
    return ok(terminal);
  }
}

function trimBlankTail(lines: string[]): string[] {
  const out = [...lines];
  while (out.length > 0 && (out.at(-1) ?? '').trim() === '') out.pop();
  return out;
}

/** Quotes one word for `sh -c` (tmux runs a lone command string through the shell). */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
