// The tmux backend (DESIGN.md §6): one session `mori-<id>` per terminal on a private server
// (tmux-server.ts), driven through a control-mode client (tmux-control-client.ts). The program
// outlives this process; a later process lists the sessions and re-attaches, loading history with
// `capture-pane` (screen-recovery.ts). `remain-on-exit` keeps a dead pane so its exit status can be
// read (exit-poller.ts). The program and its environment reach tmux through the control client's
// stdin, never through any process's arguments (session-setup.ts). Runs in the supervisor's process.
import { existsSync } from 'node:fs';
import { fail, ok, type Result } from '../../../common/result.js';
import type { BackendAvailability } from '../../../common/terminal.js';
import { clampSize } from '../../../common/terminal.js';
import { background } from '../../background.js';
import { systemScheduler, type Scheduler } from '../../power/clock.js';
import { ManagedTerminal } from '../managed-terminal.js';
import { TERMINAL_MARKER_ENV } from '../../os/process-tree.js';
import {
  TERMINAL_ID_PATTERN,
  type PersistentSessionInfo,
  type PersistentTerminalBackend,
  type ReattachOptions,
  type SpawnOptions,
  type Terminal,
} from '../terminal.js';
import { PANE_FORMAT, parsePaneLine, SESSION_PREFIX, tmuxSessionName, type PaneInfo } from './pane-format.js';
import { TmuxPaneSource } from './pane-source.js';
import { captureScreen } from './screen-recovery.js';
import { createSession, programWords, respawnCommand, TMUX_HISTORY_LIMIT, type Launch } from './session-setup.js';
import { attachControlClient } from './tmux-control-client.js';
import { TmuxServer, type TmuxServerOptions } from './tmux-server.js';

export interface TmuxBackendOptions extends TmuxServerOptions {
  historyLimit?: number;
  /** Timers of the exit poller (default: the system's). */
  scheduler?: Scheduler;
}

export class TmuxBackend implements PersistentTerminalBackend {
  readonly kind = 'tmux' as const;
  readonly server: TmuxServer;
  private readonly historyLimit: number;
  private readonly scheduler: Scheduler;
  private availability: Promise<BackendAvailability> | null = null;

  constructor(options: TmuxBackendOptions = {}) {
    this.server = new TmuxServer(options);
    this.historyLimit = options.historyLimit ?? TMUX_HISTORY_LIMIT;
    this.scheduler = options.scheduler ?? systemScheduler;
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
    const env = { ...options.env, [TERMINAL_MARKER_ENV]: `tmux:${options.id}` };
    const created = await createSession(this.server, { name, size, cwd: options.cwd, env, historyLimit: this.historyLimit });
    if (created.code !== 0) return fail('failed', `tmux could not start ${options.command}: ${(created.stderr || created.stdout).trim()}`);
    const launch = { cwd: options.cwd, env, program: programWords(options.command, options.args) };
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
    const name = tmuxSessionName(id);
    // The client comes first (it finds the pane), the source once the pane is known.
    let source: TmuxPaneSource | null = null;
    const client = await attachControlClient(this.server, name, {
      output: (pane, data) => source?.output(pane, data),
      subscription: (sub, value) => source?.subscription(sub, value),
      // tmux paused the pane for us (pause-after); we never ask for that, but resume if it happens.
      pause: (pane) => void client.command(`refresh-client -A '${pane}:continue'`),
      exit: () => source?.clientExited(),
    });
    const giveUp = (): Promise<void> => this.server.exclusive(() => client.close());
    if (launch) {
      const started = await client.command(respawnCommand(name, launch));
      if (!started.ok) {
        await giveUp();
        await this.server.exclusive(() => this.server.run(['kill-session', '-t', `=${name}`]));
        return fail('failed', `tmux could not start ${launch.program[0] ?? ''}: ${started.lines.join(' ').trim()}`);
      }
    }
    const info = await client.command(`display -p -t '=${name}:' '${PANE_FORMAT}'`);
    const pane = info.ok ? parsePaneLine(info.lines[0] ?? '') : null;
    if (!pane) {
      await giveUp();
      // A session just made and gone (its server killed meanwhile) is a launch that failed, not an absence.
      return fail(launch ? 'failed' : 'not-found', `no tmux session ${name} on socket ${this.server.socketName}`);
    }
    const paneSource = new TmuxPaneSource({ server: this.server, client, sessionName: name, marker: `tmux:${id}`, pane, scheduler: this.scheduler });
    source = paneSource;
    const captured = await captureScreen(client, pane.pane, () => paneSource.synced());
    paneSource.seen(captured.seen);
    const terminal = new ManagedTerminal(paneSource, {
      id,
      backend: 'tmux',
      size: pane.size,
      transcriptDir: options.transcriptDir,
      ...(options.transcriptMaxBytes ? { transcriptMaxBytes: options.transcriptMaxBytes } : {}),
      ...(launch ? { initialOutput: captured.screen } : { initialScreen: captured.screen }),
    });
    if (pane.dead) background(paneSource.readExit(), 'reading the exit status of a tmux pane');
    return ok(terminal);
  }
}
