// The direct backend (DESIGN.md §6): each terminal is a node-pty child of this process, so it ends
// with the app. Pids are recorded under `<runDir>/direct/` and a new process sweeps what a crashed
// one left. Runs in the supervisor's process.
import { existsSync } from 'node:fs';
import { fail, ok, type Result } from '../../../common/result.js';
import { DirectPtySource } from './direct-pty-source.js';
import { ManagedTerminal } from '../managed-terminal.js';
import { removePidRecord, sweepOrphans, writePidRecord } from '../pid-registry.js';
import { TERMINAL_ID_PATTERN, type SpawnOptions, type Terminal, type TerminalBackend } from '../terminal.js';

export interface DirectBackendOptions {
  /** Where pid records live (e.g. `$MORI_HOME/run`). */
  runDir: string;
}

export class DirectBackend implements TerminalBackend {
  readonly kind = 'direct' as const;

  constructor(private readonly options: DirectBackendOptions) {}

  /** Ends what earlier, dead Mori processes left running; call once at start. */
  sweepOrphans(): Promise<number[]> {
    return sweepOrphans(this.options.runDir);
  }

  async spawn(options: SpawnOptions): Promise<Result<Terminal>> {
    if (!TERMINAL_ID_PATTERN.test(options.id)) return fail('usage', `invalid terminal id "${options.id}"`);
    if (!existsSync(options.cwd)) return fail('not-found', `working directory ${options.cwd} does not exist`);
    const marker = `direct:${options.id}`;
    let source: DirectPtySource;
    try {
      source = new DirectPtySource({ ...options, marker });
    } catch (e) {
      return fail('failed', `could not start ${options.command}: ${e instanceof Error ? e.message : String(e)}`);
    }
    writePidRecord(this.options.runDir, { id: options.id, marker, pid: source.pid });
    const terminal = new ManagedTerminal(source, {
      id: options.id,
      backend: 'direct',
      size: { cols: options.cols, rows: options.rows },
      transcriptDir: options.transcriptDir,
      ...(options.transcriptMaxBytes ? { transcriptMaxBytes: options.transcriptMaxBytes } : {}),
    });
    terminal.onExit(() => removePidRecord(this.options.runDir, options.id));
    return ok(terminal);
  }
}
