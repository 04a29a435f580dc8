// The shared plumbing of every terminal, whichever backend: output goes to the transcript, the
// headless mirror and (batched) to listeners and attached views; per-view flow control pauses the
// backend; exit is reported once, after the last output. Runs in the supervisor's process.
import { randomUUID } from 'node:crypto';
import type { TerminalBackendKind, TerminalExit, TerminalSize } from '../../common/terminal.js';
import { clampSize } from '../../common/terminal.js';
import { FlowControl } from './flow-control.js';
import { HeadlessMirror } from './headless-mirror.js';
import { OutputBatcher } from './output-batcher.js';
import type { Attachment, PtySource, Terminal, TerminalProblem, FrameSink } from './terminal.js';
import { Transcript } from './transcript.js';
import { background } from '../background.js';

export interface ManagedTerminalOptions {
  id: string;
  backend: TerminalBackendKind;
  size: TerminalSize;
  transcriptDir: string | null;
  transcriptMaxBytes?: number;
  /** Screen content to load into the mirror first (history captured on re-attach). */
  initialScreen?: string;
  /** Output the program wrote before we could read it live: treated as its first output. */
  initialOutput?: string;
}

interface AttachmentState {
  id: string;
  view: FrameSink;
  /** Output frames held back until the snapshot went out. */
  backlog: string[] | null;
}

export class ManagedTerminal implements Terminal {
  readonly id: string;
  readonly backend: TerminalBackendKind;
  readonly transcriptDir: string | null;
  private currentSize: TerminalSize;
  private exitInfo: TerminalExit | null = null;
  private readonly mirror: HeadlessMirror;
  private readonly transcript: Transcript | null;
  private readonly batcher: OutputBatcher;
  private readonly flow = new FlowControl();
  private readonly attachments = new Map<string, AttachmentState>();
  private readonly dataListeners = new Set<(data: string) => void>();
  private readonly exitListeners = new Set<(exit: TerminalExit) => void>();
  private readonly problemListeners = new Set<(problem: TerminalProblem) => void>();
  private exited!: Promise<TerminalExit>;
  private resolveExit!: (exit: TerminalExit) => void;
  private released = false;

  constructor(
    private readonly source: PtySource,
    options: ManagedTerminalOptions,
  ) {
    this.id = options.id;
    this.backend = options.backend;
    this.transcriptDir = options.transcriptDir;
    this.currentSize = clampSize(options.size);
    this.mirror = new HeadlessMirror(this.currentSize.cols, this.currentSize.rows);
    if (options.initialScreen) this.mirror.push(options.initialScreen);
    this.transcript = options.transcriptDir
      ? new Transcript({
          dir: options.transcriptDir,
          ...(options.transcriptMaxBytes ? { maxBytes: options.transcriptMaxBytes } : {}),
          onError: (e) => this.problem({ kind: 'transcript-write', message: `could not write the transcript in ${options.transcriptDir}: ${e.message}` }),
        })
      : null;
    this.batcher = new OutputBatcher((data) => this.deliver(data));
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
    // The transcript takes the program's own bytes where the source has them (no second encoding).
    const bytes = source.onBytes?.bind(source);
    if (bytes) bytes((b) => this.transcript?.append(b));
    source.onData((data) => {
      if (!bytes) this.transcript?.append(data);
      this.mirror.push(data);
      this.batcher.push(data);
    });
    source.onExit((exit) => this.handleExit(exit));
    if (options.initialOutput) {
      this.transcript?.append(options.initialOutput);
      this.mirror.push(options.initialOutput);
      this.batcher.push(options.initialOutput);
    }
  }

  get pid(): number {
    return this.source.pid;
  }

  get size(): TerminalSize {
    return { ...this.currentSize };
  }

  get exit(): TerminalExit | null {
    return this.exitInfo;
  }

  /** How many times a flood made the mirror keep only its tail (diagnostics, tests). */
  get mirrorFloods(): number {
    return this.mirror.floods;
  }

  /** Whether flow control holds the program now (diagnostics, tests). */
  get paused(): boolean {
    return this.flow.isPaused;
  }

  write(data: string): void {
    if (this.exitInfo || this.released) return;
    this.source.write(data);
  }

  resize(cols: number, rows: number): void {
    const size = clampSize({ cols, rows });
    if (this.exitInfo || (size.cols === this.currentSize.cols && size.rows === this.currentSize.rows)) return;
    this.currentSize = size;
    this.source.resize(size.cols, size.rows);
    this.mirror.resize(size.cols, size.rows);
  }

  async kill(): Promise<TerminalExit> {
    // Even after the program ended: what it left running (found by its marker) goes too.
    await this.source.kill();
    return this.exited;
  }

  onData(listener: (data: string) => void): () => void {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  onExit(listener: (exit: TerminalExit) => void): () => void {
    if (this.exitInfo) {
      const exit = this.exitInfo;
      queueMicrotask(() => listener(exit));
      return () => undefined;
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  onProblem(listener: (problem: TerminalProblem) => void): () => void {
    this.problemListeners.add(listener);
    return () => this.problemListeners.delete(listener);
  }

  attach(view: FrameSink, options: { holding?: boolean } = {}): Attachment {
    this.detach(view);
    // Output read before this point goes to the views already attached and into the snapshot.
    this.batcher.flush();
    const state: AttachmentState = { id: randomUUID(), view, backlog: null };
    this.attachments.set(state.id, state);
    if (this.flow.attach(state.id, options.holding ?? true) === 'resume') this.source.resume();
    const ready = this.sendSnapshot(state);
    return {
      id: state.id,
      ready,
      ack: (chars) => {
        if (this.flow.ack(state.id, chars) === 'resume') this.source.resume();
      },
      hold: (holding) => {
        // Output read so far is in the snapshot a view coming back gets: it goes out first, not to it.
        if (holding) this.batcher.flush();
        const { decision, caughtUp } = this.flow.hold(state.id, holding);
        if (decision === 'pause') this.source.pause();
        if (decision === 'resume') this.source.resume();
        if (caughtUp) background(this.sendSnapshot(state), 'the snapshot for a view shown again');
      },
      detach: () => this.detachId(state.id),
    };
  }

  /**
   * The screen as the mirror has it, then what came meanwhile: on attach, and when a view that fell
   * behind holds again. The caller flushed the batcher first, so output read before this point is in
   * the snapshot and output after it reaches this view once the snapshot went; the cut is exact
   * because this part is synchronous.
   */
  private sendSnapshot(state: AttachmentState): Promise<void> {
    state.backlog = [];
    const size = this.size;
    return this.mirror
      .snapshot()
      .catch(() => '')
      .then((data) => {
        if (this.attachments.get(state.id) !== state) return;
        state.view.frame({ kind: 'snapshot', data, size });
        const backlog = state.backlog ?? [];
        state.backlog = null;
        for (const chunk of backlog) state.view.frame({ kind: 'output', data: chunk });
      });
  }

  detach(view: FrameSink): void {
    for (const state of [...this.attachments.values()]) if (state.view === view) this.detachId(state.id);
  }

  snapshot(): Promise<string> {
    return this.mirror.snapshot();
  }

  screenText(): Promise<string> {
    return this.mirror.screenText();
  }

  async dispose(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await this.source.release();
    this.batcher.dispose();
    for (const id of [...this.attachments.keys()]) this.detachId(id);
    await this.transcript?.close();
    this.mirror.dispose();
  }

  /** Resolves once the transcript holds everything read so far (tests, shutdown). */
  async flushTranscript(): Promise<void> {
    this.batcher.flush();
    await this.transcript?.flush();
  }

  private detachId(id: string): void {
    if (!this.attachments.delete(id)) return;
    if (this.flow.detach(id) === 'resume') this.source.resume();
  }

  private deliver(data: string): void {
    for (const listener of this.dataListeners) listener(data);
    if (this.attachments.size === 0) return;
    for (const state of this.attachments.values()) {
      if (!this.flow.sends(state.id)) continue;
      if (state.backlog) state.backlog.push(data);
      else state.view.frame({ kind: 'output', data });
    }
    if (this.flow.sent(data.length) === 'pause') this.source.pause();
  }

  private problem(problem: TerminalProblem): void {
    for (const listener of this.problemListeners) listener(problem);
  }

  private handleExit(exit: TerminalExit): void {
    if (this.exitInfo) return;
    this.batcher.flush();
    this.exitInfo = exit;
    if (this.transcript) background(this.transcript.flush(), 'transcript flush');
    this.resolveExit(exit);
    for (const listener of this.exitListeners) listener(exit);
    this.exitListeners.clear();
  }
}
