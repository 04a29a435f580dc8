// An in-memory terminal backend for tests of the supervisor: spawn starts no process, it records the
// launch and hands back a FakeTerminal the test drives (emit output, end the program with an exit
// code or signal). It stands in for the direct backend, the one the Supervisor's `direct` option
// takes, so it extends DirectBackend and overrides both of its public methods: nothing of the real
// one (node-pty, pid records) runs. Runs in vitest.
import type { TerminalExit, TerminalSize } from '../../../common/terminal.js';
import { ok, type Result } from '../../../common/result.js';
import { DirectBackend } from '../../../main/terminals/direct/direct-backend.js';
import type { Attachment, SpawnOptions, Terminal, TerminalProblem, FrameSink } from '../../../main/terminals/terminal.js';

/** Fake pids start here: far above any a test machine hands out soon, so none names a real process. */
const FIRST_FAKE_PID = 4_000_000;

export class FakeTerminal implements Terminal {
  readonly backend = 'direct' as const;
  readonly transcriptDir: string | null;
  size: TerminalSize;
  exit: TerminalExit | null = null;
  /** Everything the supervisor wrote into the terminal, in order. */
  readonly written: string[] = [];
  private screen = '';
  private readonly dataListeners = new Set<(data: string) => void>();
  private readonly exitListeners = new Set<(exit: TerminalExit) => void>();
  private readonly problemListeners = new Set<(problem: TerminalProblem) => void>();

  constructor(
    readonly id: string,
    readonly pid: number,
    readonly options: SpawnOptions,
  ) {
    this.size = { cols: options.cols, rows: options.rows };
    this.transcriptDir = options.transcriptDir;
  }

  /** The program prints `data`: listeners get it and the screen shows it. */
  output(data: string): void {
    if (this.exit) throw new Error(`terminal ${this.id} already exited`);
    this.screen += data;
    for (const l of [...this.dataListeners]) l(data);
  }

  /** The program repaints its whole screen (a dialog closes): the screen shows `data` alone. */
  redraw(data: string): void {
    if (this.exit) throw new Error(`terminal ${this.id} already exited`);
    this.screen = data;
    for (const l of [...this.dataListeners]) l(data);
  }

  /** The program ends on its own (or by a signal): exit listeners are told, once. */
  end(exit: TerminalExit): void {
    if (this.exit) return;
    this.exit = exit;
    for (const l of [...this.exitListeners]) l(exit);
    this.exitListeners.clear();
  }

  /** Ends with exit `code` (a crash: non-zero; done: 0). */
  exitWith(code: number): void {
    this.end({ code, signal: null });
  }

  write(data: string): void {
    this.written.push(data);
  }

  resize(cols: number, rows: number): void {
    this.size = { cols, rows };
  }

  kill(): Promise<TerminalExit> {
    // As a real kill: SIGHUP ends the program, whose exit is reported like any other.
    this.end({ code: null, signal: 'SIGHUP' });
    return Promise.resolve(this.exit as TerminalExit);
  }

  onData(listener: (data: string) => void): () => void {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  onExit(listener: (exit: TerminalExit) => void): () => void {
    if (this.exit) {
      listener(this.exit);
      return () => {};
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  onProblem(listener: (problem: TerminalProblem) => void): () => void {
    this.problemListeners.add(listener);
    return () => this.problemListeners.delete(listener);
  }

  attach(view: FrameSink): Attachment {
    view.frame({ kind: 'snapshot', data: this.screen, size: this.size });
    return { id: `${this.id}-view`, ready: Promise.resolve(), ack: () => {}, hold: () => {}, detach: () => {} };
  }

  detach(): void {}

  snapshot(): Promise<string> {
    return Promise.resolve(this.screen);
  }

  screenText(): Promise<string> {
    return Promise.resolve(this.screen);
  }

  dispose(): Promise<void> {
    return Promise.resolve();
  }
}

export class FakeBackend extends DirectBackend {
  /** Every terminal spawned, oldest first (one per launch). */
  readonly launches: FakeTerminal[] = [];
  private nextPid = FIRST_FAKE_PID;

  constructor() {
    // The run dir is never read: sweepOrphans and spawn below do not touch it.
    super({ runDir: '/nonexistent' });
  }

  override sweepOrphans(): Promise<number[]> {
    return Promise.resolve([]);
  }

  override spawn(options: SpawnOptions): Promise<Result<Terminal>> {
    const t = new FakeTerminal(options.id, this.nextPid++, options);
    this.launches.push(t);
    return Promise.resolve(ok(t));
  }

  /** The terminal of the latest launch; throws when nothing was launched. */
  get last(): FakeTerminal {
    const t = this.launches.at(-1);
    if (!t) throw new Error('nothing was launched');
    return t;
  }
}
