// How each session comes up when the supervisor starts or the person starts it (DESIGN.md §4, "App
// start"): a live tmux session is re-attached at once; a dead tmux pane (its agent exited while Mori
// was down) is read as that exit; a new session launches; the rest resume through the one resume
// path. Launches at supervisor start go through the staggered queue; a start the person asked for
// runs now. Runs in the supervisor's process.
import path from 'node:path';
import type { TerminalExit } from '../../common/terminal.js';
import { background } from '../background.js';
import { bootId } from '../os/boot-id.js';
import { removeAbandonedTemps } from '../state/abandoned-temps.js';
import { TRANSCRIPT_DIR } from '../state/state-dir.js';
import type { PersistentSessionInfo } from '../terminals/terminal.js';
import type { AgentLauncher } from './launch/agent-launcher.js';
import type { ExitHandler } from './exits/exit-handler.js';
import { planNewLaunch } from './resume/launch-plan.js';
import type { LaunchQueue } from './launch/launch-queue.js';
import { startAction, type StartAction } from './session/lifecycle.js';
import type { ResumeController } from './resume/resume-controller.js';
import type { SessionRuntime } from './session/session-runtime.js';
import type { MachineState } from './session/machine-state.js';
import type { Env } from '../agents/profile.js';
import type { TmuxBackend } from '../terminals/tmux/tmux-backend.js';

/** tmux reaps a dead pane's program lazily; reading its status through a re-attach takes this long at most. */
const DEAD_PANE_READ_MS = 5_000;

/** The tmux sessions found at start: which are alive, and the recorded exit of the dead ones (null: not reaped yet). */
export interface PaneCensus {
  alive: Set<string>;
  dead: Map<string, TerminalExit | null>;
}

export function paneCensus(panes: readonly PersistentSessionInfo[]): PaneCensus {
  return {
    alive: new Set(panes.filter((p) => p.alive).map((p) => p.id)),
    dead: new Map(panes.filter((p) => !p.alive).map((p) => [p.id, p.exit] as const)),
  };
}

/** What bringing sessions up uses. */
export interface SessionStartupPorts {
  home: string;
  env: Env;
  machine: Readonly<MachineState>;
  tmux: TmuxBackend | null;
  queue: Pick<LaunchQueue, 'enqueue'>;
  launcher: Pick<AgentLauncher, 'launch' | 'reattach'>;
  resumer: Pick<ResumeController, 'resume'>;
  exits: Pick<ExitHandler, 'exitedWhileDown'>;
}

export class SessionStartup {
  constructor(private readonly ports: SessionStartupPorts) {}

  /** What to do with `rt` given its tmux session's state. */
  action(rt: SessionRuntime, census: PaneCensus): StartAction {
    const s = rt.session;
    const dead = census.dead.has(rt.id);
    return startAction({
      intent: s.intent,
      tmuxAlive: census.alive.has(rt.id),
      tmuxExit: dead ? (census.dead.get(rt.id) ?? UNREAPED) : null,
      hasRun: s.lastBootId !== null || s.lastExit !== null || s.agent.sessionId !== null,
      lastBootId: s.lastBootId,
      currentBootId: bootId(),
    });
  }

  /** Re-attaches and exit readings happen now; launches wait in the staggered queue unless `asked`. */
  async bringUp(rt: SessionRuntime, action: StartAction, asked: boolean): Promise<void> {
    const gen = rt.generation;
    // File times are wall-clock: an abandoned temp file's age is read against the wall clock.
    background(removeAbandonedTemps(rt.stateDir, Date.now()), `removing abandoned temp files of ${rt.name}`);
    const later = (what: string, job: () => Promise<void>): Promise<void> => {
      if (asked) return job();
      this.ports.queue.enqueue(`${what} of ${rt.name}`, async () => {
        if (this.ports.machine.shuttingDown || rt.generation !== gen) return;
        await job();
      });
      return Promise.resolve();
    };
    switch (action.kind) {
      case 'reattach': {
        // A sleep logged by the previous supervisor and never answered (it ended before the wake's
        // resume): the agent is still there, but maybe idle since; the wake's resume runs now. Not a
        // network loss: that waits for the network's return, which this supervisor's probe tells.
        const intent = rt.session.intent;
        const pending = intent.kind === 'interrupted' && intent.reason === 'sleep' ? intent.reason : null;
        if (await this.ports.launcher.reattach(rt)) {
          // Beside the other sessions' start, not in front of it: its checks take their own time.
          if (pending !== null && rt.terminal !== null) background(this.ports.resumer.resume(rt, pending, null, { asked }), `resuming ${rt.name} after the sleep`);
          return;
        }
        return later('the relaunch', () => this.ports.resumer.resume(rt, 'app-exit', null, { asked }));
      }
      case 'exited-while-down': {
        if (rt.state !== 'idle') {
          // Stopped, finished or waiting for attention, and named to start: the old pane only goes.
          await this.ports.tmux?.remove(rt.id);
          return this.bringUp(rt, this.action(rt, { alive: new Set(), dead: new Map() }), asked);
        }
        const exit = action.exit === UNREAPED ? await this.readDeadPane(rt) : action.exit;
        await this.ports.tmux?.remove(rt.id);
        this.ports.exits.exitedWhileDown(rt, exit);
        return;
      }
      case 'new':
        return later('the launch', () =>
          this.ports.launcher.launch(rt, planNewLaunch(rt.profile, rt.session, this.ports.env, { home: this.ports.home, stateDir: rt.stateDir }), { reason: null, context: null, gen: rt.takeCharge() }),
        );
      case 'relaunch':
        return later('the relaunch', () => this.ports.resumer.resume(rt, action.reason, null, { asked }));
    }
  }

  /** A dead pane whose status tmux has not reaped yet: a re-attach reads it (bounded); unknown if not. */
  private async readDeadPane(rt: SessionRuntime): Promise<TerminalExit> {
    const unknown: TerminalExit = { code: null, signal: null };
    if (!this.ports.tmux) return unknown;
    const t = await this.ports.tmux.reattach(rt.id, { transcriptDir: path.join(rt.stateDir, TRANSCRIPT_DIR) });
    if (!t.ok) return unknown;
    const exit = await new Promise<TerminalExit>((resolve) => {
      const timer = setTimeout(() => resolve(unknown), DEAD_PANE_READ_MS);
      t.value.onExit((e) => {
        clearTimeout(timer);
        resolve(e);
      });
    });
    background(t.value.dispose(), `letting go of the dead tmux session of ${rt.name}`);
    return exit;
  }
}

/** Stands for "dead, status not reaped yet" in a StartAction. */
const UNREAPED: TerminalExit = Object.freeze({ code: null, signal: null });
