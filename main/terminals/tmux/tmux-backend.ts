// The tmux backend (DESIGN.md §6): one session `mori-<id>` per terminal on a private server,
// driven through a control-mode client. The program outlives this process; a later process lists
// the sessions and re-attaches, loading history with `capture-pane`. `remain-on-exit` keeps a dead
// pane so its exit status can be read. The program and its environment reach tmux through the control
// client's stdin, never through any process's arguments; the start directory is escaped where tmux
// would expand it as a format (tmux-format.ts). Runs in the supervisor's process.
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { fail, ok, type Result } from '../../../common/result.js';
import type { BackendAvailability, TerminalExit, TerminalSize } from '../../../common/terminal.js';
import { clampSize } from '../../../common/terminal.js';
import { ManagedTerminal } from '../managed-terminal.js';
import { releaseOnDetachHook, setPaneOutput } from './pane-hold.js';
import { killTree, TERMINAL_MARKER_ENV } from '../process-tree.js';
import { TmuxControlClient } from './tmux-control-client.js';
import { formatLiteral } from './tmux-format.js';
import { hexKeys, tmuxWord } from './tmux-protocol.js';
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
} from '../terminal.js';
import { background } from '../../background.js';

/** tmux keeps this much history per pane: what a re-attaching process can still load. */
export const TMUX_HISTORY_LIMIT = 10_000;
/** Input bytes per `send-keys -H` command: keeps each command line short (3 chars per byte). */
const SEND_KEYS_CHUNK_BYTES = 512;
const SESSION_PREFIX = 'mori-';
/** After losing the control client, look this often, this many times, for the pane to die. */
const CLIENT_LOST_POLL_MS = 100;
const CLIENT_LOST_POLLS = 30;
/**
 * A pane reads as dead (its pty closed) before tmux has reaped the program and knows its status.
 * tmux 3.3a built with libutempter can even miss the program's SIGCHLD for good (utempter swaps the
 * handler while it removes the utmp record of that very pane; fixed upstream after 3.3a), leaving
 * the program a zombie until some other child of the server exits. So we make one exit: a
 * `run-shell true` job, whose SIGCHLD makes the server reap every child. Then look again, this
 * often, this many times; 2 s only bounds a server that never learns the status.
 */
const EXIT_STATUS_POLL_MS = 20;
const EXIT_STATUS_POLLS = 100;
const REAP_NUDGE = 'run-shell true';
const SUBSCRIPTION = 'mori-dead';
/** A control client attaches in milliseconds; this only bounds a wedged server. */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * The pane's fate, watched by the subscription and read by `display`. It holds the status too, so
 * the subscription changes again (and the exit is read again) once tmux knows the status.
 */
const FATE_FORMAT = '#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}';

export const tmuxSessionName = (id: string): string => `${SESSION_PREFIX}${id}`;

const signalName = (n: number): string => Object.entries(constants.signals).find(([, v]) => v === n)?.[0] ?? `SIG${n}`;

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

const PANE_FORMAT = '#{session_name}\t#{pane_id}\t#{pane_pid}\t#{pane_dead}\t#{pane_dead_status}\t#{pane_dead_signal}\t#{window_width}\t#{window_height}\t#{session_created}\t#{pane_tty}';

interface PaneInfo {
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
  private readingExit = false;
  /** Flow control holds the program (see pane-hold.ts). */
  private held = false;
  /** Holds and releases, in order: each runs a small helper process. */
  private holding: Promise<unknown> = Promise.resolve();
  /** The resize under way, if any: input waits for it. */
  private resizing: Promise<void> | null = null;
  /**
   * Output that came after the capture but before the terminal listened (the capture's reply and
   * the output after it can arrive in one chunk): handed to the first listener.
   */
  private readonly early: string[] = [];
  /** The last output, to find what tmux failed to send when the program exited. */
  private tail = '';
  /** Output before this turns false is already in the captured screen. */
  syncing = true;
  paneId: string | null = null;
  pid = 0;
  tty = '';
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
        if (name === SUBSCRIPTION && parseFate(value)?.state !== 'running') background(this.readExit(), 'reading the exit status of a tmux pane');
      },
      // tmux paused the pane for us (pause-after); we never ask for that, but resume if it happens.
      pause: (pane) => void this.client.command(`refresh-client -A '${pane}:continue'`),
      exit: () => {
        if (!this.released) background(this.clientLost(), 'handling a lost tmux control client');
      },
    });
  }

  write(data: string): void {
    if (!this.paneId || this.exitInfo) return;
    const pane = this.paneId;
    const keys = hexKeys(data);
    const send = (): void => {
      for (let i = 0; i < keys.length; i += SEND_KEYS_CHUNK_BYTES) {
        background(this.client.command(`send-keys -t ${pane} -H ${keys.slice(i, i + SEND_KEYS_CHUNK_BYTES).join(' ')}`), 'typing into a tmux pane');
      }
    };
    // Input typed after a resize reaches the program after it (it may ask for its size).
    if (this.resizing) background(this.resizing.then(send), 'typing into a tmux pane');
    else send();
  }

  resize(cols: number, rows: number): void {
    this.rows = rows;
    const pane = this.paneId;
    if (!pane) return;
    // A resize notifies every control client (%layout-change): one of the exclusive operations.
    const done = this.server.exclusive(() => this.client.command(`resize-window -t ${pane} -x ${cols} -y ${rows}`)).then(() => undefined);
    this.resizing = done;
    background(done.then(() => {
      if (this.resizing === done) this.resizing = null;
    }), 'resizing a tmux pane');
  }

  /**
   * A view lags: the pane's tty stops taking output, so the program blocks in its next write (see
   * pane-hold.ts). The control client's output is always read, so command replies (a resize, an
   * exit read) and every other session carry on meanwhile.
   */
  pause(): void {
    if (this.exitInfo || this.held || !this.tty) return;
    this.held = true;
    const tty = this.tty;
    const pid = this.pid;
    this.holding = this.holding.then(() => (this.exitInfo || this.released || !this.held ? false : setPaneOutput(tty, pid, false)));
  }

  resume(): Promise<unknown> {
    if (!this.held) return this.holding;
    this.held = false;
    const tty = this.tty;
    this.holding = this.holding.then(() => setPaneOutput(tty, this.pid, true));
    return this.holding;
  }

  onData(listener: (data: string) => void): void {
    this.dataListeners.push(listener);
    const early = this.early.splice(0);
    for (const data of early) listener(data);
  }

  onExit(listener: (exit: TerminalExit) => void): void {
    this.exitListeners.push(listener);
    if (this.exitInfo) {
      const exit = this.exitInfo;
      queueMicrotask(() => listener(exit));
    }
  }

  async kill(): Promise<void> {
    // Let a held program go on, so it can handle SIGTERM and write its last words.
    await this.resume();
    // The pane's program, its session and everything carrying its marker; once the program has
    // ended, what it left behind (a pane closing only sends SIGHUP, which some agents ignore).
    await killTree(this.exitInfo ? null : this.pid || null, this.marker);
  }

  async release(): Promise<void> {
    this.released = true;
    // The program runs on without us: never leave it held.
    await this.resume();
    await this.server.exclusive(() => this.client.close());
  }

  /** Output that is already on the screen when we attach (it counts as seen). */
  seen(data: string): void {
    this.tail = (this.tail + data).slice(-TAIL_KEEP_CHARS);
  }

  private emitData(data: string): void {
    this.tail = (this.tail + data).slice(-TAIL_KEEP_CHARS);
    if (this.dataListeners.length === 0) this.early.push(data);
    for (const l of this.dataListeners) l(data);
  }

  /** Reads the pane's fate through our control client; null when the pane (or the client) is gone. */
  private async fateNow(): Promise<PaneFate | null> {
    const r = await this.client.command(`display -p -t ${this.paneId} '${FATE_FORMAT}'`);
    return r.ok ? parseFate(r.lines[0] ?? '') : null;
  }

  /**
   * The pane may have died: wait until tmux knows how, recover output it dropped, report the exit,
   * and remove the dead session. One read at a time (the subscription and the attach both call this).
   */
  async readExit(): Promise<void> {
    if (this.exitInfo || !this.paneId || this.readingExit) return;
    this.readingExit = true;
    try {
      let fate = await this.fateNow();
      for (let poll = 0; fate?.state === 'exiting' && poll < EXIT_STATUS_POLLS; poll++) {
        if (poll > 0) await new Promise((resolve) => setTimeout(resolve, EXIT_STATUS_POLL_MS));
        await this.client.command(REAP_NUDGE);
        fate = await this.fateNow();
      }
      // Not dead after all; or our client went away, and clientLost() takes over.
      if (this.exitInfo || fate?.state === 'running' || (fate === null && !this.client.alive)) return;
      if (fate) {
        // tmux 3.3a does not send a pane's last read to control clients when the program exits with
        // it: recover those lines from the final screen.
        const plain = await this.client.command(`capture-pane -p -S - -t ${this.paneId}`);
        const styled = await this.client.command(`capture-pane -p -e -S - -t ${this.paneId}`);
        if (plain.ok && styled.ok) {
          const missing = missingTail(this.tail, plain.lines, styled.lines, this.rows);
          if (missing) this.emitData(missing);
        }
      }
      // Gone without a trace (someone killed the session), or a status tmux never learnt: unknown.
      this.reportExit(fate?.state === 'dead' ? fate.exit : { code: null, signal: null });
    } finally {
      this.readingExit = false;
    }
    // The exit is read and reported: the dead session has done its job.
    this.released = true;
    await this.server.exclusive(async () => {
      await this.server.run(['kill-session', '-t', `=${this.sessionName}`]);
      await this.client.close();
    });
  }

  /** Our control client went away on its own: read the pane's fate with one-shot commands. */
  private async clientLost(): Promise<void> {
    let exiting = 0;
    for (let attempt = 0; attempt < CLIENT_LOST_POLLS && !this.exitInfo; attempt++) {
      const r = await this.server.run(['display', '-p', '-t', this.paneId ?? `=${this.sessionName}:`, FATE_FORMAT]);
      if (r.code !== 0) break;
      const fate = parseFate(r.stdout);
      if (fate?.state === 'dead') {
        this.reportExit(fate.exit);
        await this.server.exclusive(() => this.server.run(['kill-session', '-t', `=${this.sessionName}`]));
        return;
      }
      if (fate?.state === 'exiting' && exiting++ < EXIT_STATUS_POLLS) {
        attempt -= 1;
        if (exiting > 1) await new Promise((resolve) => setTimeout(resolve, EXIT_STATUS_POLL_MS));
        await this.server.run(REAP_NUDGE.split(' '));
        continue;
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
      // Programs learn when their view gains or loses focus (Claude Code warns on every start without).
      ['set-option', '-s', 'focus-events', 'on'],
      ['set-option', '-g', 'remain-on-exit', 'on'],
      ...(version && versionAtLeast(version, 3, 3) ? [['set-option', '-g', 'remain-on-exit-format', '']] : []),
      ['set-option', '-g', 'status', 'off'],
      // Window names mean nothing here, and each rename notifies every control client.
      ['set-option', '-g', 'automatic-rename', 'off'],
      ['set-option', '-g', 'history-limit', String(this.historyLimit)],
      ['set-option', '-g', 'default-terminal', this.server.defaultTerminal()],
      // A pane starts from the server's global environment (the supervisor's own, when it started the
      // server) plus -e: drop every variable the program is not given, so none leaks into it by name.
      ...Object.keys(process.env).filter((k) => !(k in env)).map((k) => ['set-environment', '-g', '-u', k]),
    ];
    const program = options.args.length > 0 ? [options.command, ...options.args] : [shellQuote(options.command)];
    // No environment value may reach any process's arguments (`/proc/*/cmdline` is world-readable,
    // and systemd-run may log them; a tmux server even keeps the argv of the client that started it
    // for its whole life). So the session starts with a placeholder that waits silently, and open()
    // replaces it with the program, environment and all, through the control client's stdin.
    const create = ['new-session', '-d', '-s', name, '-x', String(size.cols), '-y', String(size.rows), '-c', formatLiteral(options.cwd), '--', ...PLACEHOLDER];
    // Views, not tmux clients, decide the size. Set per window after new-session: tmux 3.3a's
    // server crashes on a second new-session while the global value is `manual`.
    const after = ['set-option', '-w', '-t', `=${name}:`, 'window-size', 'manual'];
    const [file, args] = await this.server.clientCommand([...setup.flatMap((c) => [...c, ';']), ...create, ';', ...after]);
    const created = await this.server.exclusive(() => execTool(file, args));
    if (created.code !== 0) return fail('failed', `tmux could not start ${options.command}: ${(created.stderr || created.stdout).trim()}`);
    const launch = { cwd: options.cwd, env, program };
    return this.open(options.id, { transcriptDir: options.transcriptDir, ...(options.transcriptMaxBytes ? { transcriptMaxBytes: options.transcriptMaxBytes } : {}) }, launch);
  }

  reattach(id: string, options: ReattachOptions): Promise<Result<Terminal>> {
    if (!TERMINAL_ID_PATTERN.test(id)) return Promise.resolve(fail('usage', `invalid terminal id "${id}"`));
    return this.open(id, options, null);
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

  /** Removes a session whose pane is dead (its exit status read from list()), so the id can start again. */
  async remove(id: string): Promise<void> {
    await this.server.exclusive(() => this.server.run(['kill-session', '-t', `=${tmuxSessionName(id)}`]));
  }

  async isAlive(id: string): Promise<boolean> {
    return (await this.list()).some((s) => s.id === id && s.alive);
  }

  /** Attaches a control client to session `mori-<id>`; with `launch`, first starts the program in it. */
  private async open(id: string, options: ReattachOptions, launch: Launch | null): Promise<Result<Terminal>> {
    const fresh = launch !== null;
    const name = tmuxSessionName(id);
    const source = new TmuxPtySource(this.server, name, `tmux:${id}`);
    await this.server.exclusive(async () => {
      source.connect(this.server.tmuxPath, [...this.server.baseArgs(), '-C', 'attach-session', '-t', `=${name}`]);
      // Bounded: a wedged server must not hold every other terminal's operations for ever.
      await Promise.race([source.client.ready, new Promise((resolve) => setTimeout(resolve, CONNECT_TIMEOUT_MS).unref())]);
    });
    if (launch) {
      const started = await source.client.command(respawnCommand(name, launch));
      if (!started.ok) {
        await source.release();
        await this.server.exclusive(() => this.server.run(['kill-session', '-t', `=${name}`]));
        return fail('failed', `tmux could not start ${launch.program[0] ?? ''}: ${started.lines.join(' ').trim()}`);
      }
    }
    const info = await source.client.command(`display -p -t '=${name}:' '${PANE_FORMAT}'`);
    const pane = info.ok ? parsePaneLine(info.lines[0] ?? '') : null;
    if (!pane) {
      await source.release();
      return fail('not-found', `no tmux session ${name} on socket ${this.server.socketName}`);
    }
    source.paneId = pane.pane;
    source.pid = pane.pid;
    source.rows = pane.size.rows;
    source.tty = pane.tty;
    // An earlier owner may have died while flow control held the program: it goes on now. And if
    // this one dies while holding it, tmux lets it go on once our control client is gone.
    if (!pane.dead && pane.tty) {
      background(setPaneOutput(pane.tty, pane.pid, true), 'letting a tmux pane write again');
      background(source.client.command(`set-hook -t '=${name}:' client-detached "${releaseOnDetachHook(pane.tty).replace(/["\\$]/g, '\\$&')}"`), 'setting the tmux release hook');
    }
    // One pane per session: a session-wide subscription watches it (tmux 3.3a never reports pane-scoped ones).
    background(source.client.command(`refresh-client -B '${SUBSCRIPTION}::${FATE_FORMAT}'`), 'subscribing to a tmux pane');
    // The cursor, then the whole history and screen. Output that arrived before the capture is in it;
    // output after it streams on, so nothing is lost or doubled.
    const cursorReply = source.client.command(`display -p -t ${pane.pane} '#{cursor_x} #{cursor_y}'`);
    const capture = await source.client.command(`capture-pane -p -e -S - -E - -t ${pane.pane}`, () => {
      source.syncing = false;
    });
    const [cx, cy] = ((await cursorReply).lines[0] ?? '').split(' ').map(Number);
    const cursor = Number.isFinite(cx) && Number.isFinite(cy) ? { x: cx as number, y: cy as number } : null;
    const screen = capture.ok ? captureToScreen(capture.lines, cursor) : '';
    // A blank screen adds no line: a made-up empty line would have to match one on the final screen.
    const captured = capture.ok ? trimBlankTail(capture.lines) : [];
    source.seen(captured.length > 0 ? captured.join('\n') + '\n' : '');
    const terminal = new ManagedTerminal(source, {
      id,
      backend: 'tmux',
      size: pane.size,
      transcriptDir: options.transcriptDir,
      ...(options.transcriptMaxBytes ? { transcriptMaxBytes: options.transcriptMaxBytes } : {}),
      ...(fresh ? { initialOutput: screen } : { initialScreen: screen }),
    });
    if (pane.dead) background(source.readExit(), 'reading the exit status of a tmux pane');
    return ok(terminal);
  }
}

/** What replaces a new session's placeholder: the program, where it runs, its whole environment. */
interface Launch {
  cwd: string;
  env: Record<string, string>;
  program: string[];
}

/**
 * The session's first program, until open() replaces it: waits silently. Should the owner die
 * before that, it ends by itself after a while and the session reads as an agent that exited.
 */
const PLACEHOLDER = ['sleep', '60'];

/** The control-mode command that kills the placeholder and starts the program in its place. */
export function respawnCommand(session: string, launch: Launch): string {
  const env = Object.entries(launch.env).map(([k, v]) => `-e ${tmuxWord(`${k}=${v}`)}`);
  return ['respawn-pane', '-k', '-t', tmuxWord(`=${session}:`), '-c', tmuxWord(formatLiteral(launch.cwd)), ...env, '--', ...launch.program.map(tmuxWord)].join(' ');
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
