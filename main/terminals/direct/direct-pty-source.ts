// The direct backend's pty: a node-pty child of this process, adapted to PtySource. The only file
// that imports node-pty (DESIGN.md §2). Runs in the supervisor's process.
import { StringDecoder } from 'node:string_decoder';
import { spawn, type IPty } from 'node-pty';
import type { TerminalExit } from '../../../common/terminal.js';
import { setCloseOnExec } from '../../os/libc.js';
import { killTree, TERMINAL_MARKER_ENV } from '../../os/process-tree.js';
import { signalName } from '../../os/signal-name.js';
import type { PtySource, SpawnOptions } from '../terminal.js';
import { drainBeforeDestroy } from './pty-drain.js';

/** node-pty reports a signal death as exit code 0 plus the signal number; we report the signal. */
export const toExit = (exitCode: number, signal: number | undefined): TerminalExit =>
  signal ? { code: null, signal: signalName(signal) } : { code: exitCode, signal: null };

/** What a direct pty needs of the spawn options, plus the marker that finds its processes later. */
export type DirectPtyOptions = Pick<SpawnOptions, 'command' | 'args' | 'cwd' | 'env' | 'cols' | 'rows'> & { marker: string };

export class DirectPtySource implements PtySource {
  private readonly pty: IPty;
  private readonly marker: string;
  private exitInfo: TerminalExit | null = null;
  private readonly exitListeners: ((exit: TerminalExit) => void)[] = [];
  private readonly dataListeners: ((data: string) => void)[] = [];
  private readonly bytesListeners: ((bytes: Buffer) => void)[] = [];
  /** The pty gives bytes (encoding null): decoded here once, a character split across reads kept whole. */
  private readonly decoder = new StringDecoder('utf8');

  constructor(options: DirectPtyOptions) {
    this.marker = options.marker;
    this.pty = spawn(options.command, options.args, {
      name: options.env.TERM ?? 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: { ...options.env, [TERMINAL_MARKER_ENV]: options.marker },
      // Bytes, not text: the transcript keeps them as they are, and the text is decoded once, here.
      encoding: null,
    });
    keepMasterPrivate(this.pty);
    // What the program printed last reaches the listeners even when the pty was paused as it ended.
    drainBeforeDestroy(this.pty);
    // With encoding null node-pty hands over Buffers (its typings say string).
    this.pty.onData((chunk: string | Buffer) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      for (const l of this.bytesListeners) l(bytes);
      const text = this.decoder.write(bytes);
      if (text.length > 0) for (const l of this.dataListeners) l(text);
    });
    this.pty.onExit(({ exitCode, signal }) => {
      const rest = this.decoder.end();
      if (rest.length > 0) for (const l of this.dataListeners) l(rest);
      this.exitInfo = toExit(exitCode, signal);
      for (const l of this.exitListeners) l(this.exitInfo);
    });
  }

  get pid(): number {
    return this.pty.pid;
  }

  write(data: string): void {
    if (!this.exitInfo) this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!this.exitInfo) this.pty.resize(cols, rows);
  }

  pause(): void {
    this.pty.pause();
  }

  resume(): void {
    this.pty.resume();
  }

  onData(listener: (data: string) => void): void {
    this.dataListeners.push(listener);
  }

  onBytes(listener: (bytes: Buffer) => void): void {
    this.bytesListeners.push(listener);
  }

  onExit(listener: (exit: TerminalExit) => void): void {
    this.exitListeners.push(listener);
  }

  async kill(): Promise<void> {
    // The pty's own exit comes through onExit; stragglers (setsid children) are killed too.
    await killTree(this.exitInfo ? null : this.pty.pid, this.marker);
  }

  async release(): Promise<void> {
    await this.kill();
  }
}

/**
 * node-pty opens a pty's master without close-on-exec on Linux, so every program this process starts
 * afterwards (the next agent's pty, git, a hook) would inherit it: another agent could type into this
 * one's terminal (answer its permission prompt) or read its screen, and the master held elsewhere
 * keeps this program from the hang-up it must get when this process dies. Marked at once, before any
 * other program starts (JavaScript runs nothing in between); a master that cannot be marked is not
 * used: the program is ended and the spawn fails.
 */
function keepMasterPrivate(pty: IPty): void {
  const fd = (pty as unknown as { _fd?: unknown })._fd;
  try {
    if (typeof fd !== 'number') throw new Error("node-pty gave no master descriptor ('_fd')");
    setCloseOnExec(fd);
  } catch (err) {
    try {
      pty.kill('SIGKILL');
    } catch {
      // already gone
    }
    throw new Error(`could not keep the terminal private to Mori: ${err instanceof Error ? err.message : String(err)}`);
  }
}
