// One tmux pane as a PtySource, for ManagedTerminal: output from the owner's control client, input
// as `send-keys -H`, resize, flow control by holding the pane at its tty (pane-hold.ts), kill of
// the pane's process tree, and the exit, read once the pane dies (exit-poller.ts), with the output
// tmux dropped at the end recovered from the final screen (screen-recovery.ts). Built whole from a
// pane open() found. Runs in the supervisor's process.
import type { TerminalExit } from '../../../common/terminal.js';
import { background } from '../../background.js';
import type { Scheduler } from '../../power/clock.js';
import { killTree } from '../../os/process-tree.js';
import type { PtySource } from '../terminal.js';
import { pollPaneExit, REAP_NUDGE } from './exit-poller.js';
import { FATE_FORMAT, FATE_SUBSCRIPTION, parseFate, type PaneFate, type PaneInfo } from './pane-format.js';
import { releaseOnDetachHook, setPaneOutput } from './pane-hold.js';
import { recoverMissingTail } from './screen-recovery.js';
import type { TmuxControlClient } from './tmux-control-client.js';
import { hexKeys } from './tmux-protocol.js';
import type { TmuxServer } from './tmux-server.js';

/** Input bytes per `send-keys -H` command: keeps each command line short (3 chars per byte). */
const SEND_KEYS_CHUNK_BYTES = 512;
/** Output remembered per pane for missingTail(): a few screens of text. */
const TAIL_KEEP_CHARS = 16_384;
/** After losing the control client, look this many times (100 ms apart) for the pane to die. */
const CLIENT_LOST_POLLS = 30;

export interface PaneSourceOptions {
  server: TmuxServer;
  /** The owner's control client, attached to the pane's session. */
  client: TmuxControlClient;
  sessionName: string;
  /** The terminal's process marker (killTree). */
  marker: string;
  pane: PaneInfo;
  scheduler: Scheduler;
}

export class TmuxPaneSource implements PtySource {
  private readonly server: TmuxServer;
  private readonly client: TmuxControlClient;
  private readonly scheduler: Scheduler;
  readonly sessionName: string;
  private readonly marker: string;
  readonly paneId: string;
  readonly pid: number;
  private readonly tty: string;
  private rows: number;
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
  /** Output before synced() is already in the captured screen. */
  private syncing = true;

  constructor(options: PaneSourceOptions) {
    this.server = options.server;
    this.client = options.client;
    this.scheduler = options.scheduler;
    this.sessionName = options.sessionName;
    this.marker = options.marker;
    const { pane } = options;
    this.paneId = pane.pane;
    this.pid = pane.pid;
    this.tty = pane.tty;
    this.rows = pane.size.rows;
    const target = `'=${this.sessionName}:'`;
    // An earlier owner may have died while flow control held the program: it goes on now. And if
    // this one dies while holding it, tmux lets it go on once our control client is gone.
    if (!pane.dead && pane.tty) {
      background(setPaneOutput(pane.tty, pane.pid, true), 'letting a tmux pane write again');
      background(this.client.command(`set-hook -t ${target} client-detached "${releaseOnDetachHook(pane.tty).replace(/["\\$]/g, '\\$&')}"`), 'setting the tmux release hook');
    }
    // One pane per session: a session-wide subscription watches it (tmux 3.3a never reports pane-scoped ones).
    background(this.client.command(`refresh-client -B '${FATE_SUBSCRIPTION}::${FATE_FORMAT}'`), 'subscribing to a tmux pane');
    // The client may have gone before this source listened to it.
    if (!this.client.alive) queueMicrotask(() => this.clientExited());
  }

  /** `%output` of the control client. */
  output(pane: string, data: string): void {
    if (pane !== this.paneId || this.syncing) return;
    this.emitData(data);
  }

  /** `%subscription-changed` of the control client. */
  subscription(name: string, value: string): void {
    if (name === FATE_SUBSCRIPTION && parseFate(value)?.state !== 'running') background(this.readExit(), 'reading the exit status of a tmux pane');
  }

  /** The control client ended. */
  clientExited(): void {
    if (!this.released) background(this.clientLost(), 'handling a lost tmux control client');
  }

  /** The screen was captured: output from now on is new. Runs as the capture's reply is parsed. */
  synced(): void {
    this.syncing = false;
  }

  write(data: string): void {
    if (this.exitInfo) return;
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
    if (this.exitInfo || this.readingExit) return;
    this.readingExit = true;
    try {
      const fate = await pollPaneExit({
        readFate: () => this.fateNow(),
        nudge: () => this.client.command(REAP_NUDGE.join(' ')),
        scheduler: this.scheduler,
        runningPolls: 0,
      });
      // Not dead after all; or our client went away, and clientLost() takes over.
      if (this.exitInfo || fate?.state === 'running' || (fate === null && !this.client.alive)) return;
      if (fate) {
        // tmux 3.3a does not send a pane's last read to control clients when the program exits with
        // it: recover those lines from the final screen.
        const missing = await recoverMissingTail(this.client, this.paneId, this.tail, this.rows);
        if (missing) this.emitData(missing);
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
    const fate = await pollPaneExit({
      readFate: async () => {
        const r = await this.server.run(['display', '-p', '-t', this.paneId, FATE_FORMAT]);
        // An answer that is no fate: look again, as for a pane that still runs.
        return r.code === 0 ? (parseFate(r.stdout) ?? { state: 'running' }) : null;
      },
      nudge: () => this.server.run(REAP_NUDGE),
      scheduler: this.scheduler,
      runningPolls: CLIENT_LOST_POLLS,
      settled: () => this.exitInfo !== null,
    });
    if (fate?.state === 'dead') {
      this.reportExit(fate.exit);
      await this.server.exclusive(() => this.server.run(['kill-session', '-t', `=${this.sessionName}`]));
      return;
    }
    this.reportExit({ code: null, signal: null });
  }

  private reportExit(exit: TerminalExit): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    for (const l of this.exitListeners) l(exit);
  }
}
