// Starts an agent and takes charge of it (DESIGN.md §4–§6): checks its program is there, picks the
// backend (tmux when asked and usable, else direct), builds its environment (agent-env.ts), spawns it,
// records the launch in session.json and the work log, and adopts the terminal — activity watch,
// checkpoints, exit handling, the first prompt for agents that take it typed. Also re-attaches a tmux
// session that outlived the last supervisor. Runs in the supervisor's process.
import path from 'node:path';
import type { LaunchKind } from '../../common/events.js';
import type { InterruptReason } from '../../common/session.js';
import type { TerminalExit } from '../../common/terminal.js';
import type { LaunchSpec } from '../agents/profile.js';
import { activityFromClaudeStatus, findClaudeStatus } from '../agents/claude-session-status.js';
import { background } from '../background.js';
import { bootId } from '../os/boot-id.js';
import { TRANSCRIPT_DIR } from '../state/state-dir.js';
import type { Terminal, TerminalBackend } from '../terminals/terminal.js';
import { tmuxSessionName } from '../terminals/tmux/pane-format.js';
import { ActivityMonitor } from './activity-monitor.js';
import { agentEnvironment } from './agent-env.js';
import type { AgentIdLearner } from './agent-id-learner.js';
import { checkAgentProgram } from '../agents/agent-program.js';
import type { Checkpointer } from './checkpointer.js';
import { describeLaunch, type PlanResult } from './launch-plan.js';
import type { ResumeJournal } from './resume/resume-journal.js';
import type { SessionRuntime } from './session-runtime.js';
import type { ResumeContext, SupervisorContext } from './supervisor-context.js';

/** The size a terminal starts at before any view says otherwise: a common laptop terminal. */
export const DEFAULT_SIZE = { cols: 120, rows: 40 };

export interface LaunchRequest {
  /** Null for a new session; else the interruption this launch resumes from. */
  reason: InterruptReason | null;
  context: ResumeContext | null;
  /** The session's generation when this launch was decided: a stop or exit since cancels it. */
  gen: number;
  /** Why a live agent was ended to make way for this launch (stuck, a nudge not taken); null: it was not running. */
  restartedBecause?: string | null;
}

export class AgentLauncher {
  constructor(
    private readonly ctx: SupervisorContext,
    private readonly checkpoints: Checkpointer,
    private readonly onExit: (rt: SessionRuntime, terminal: Terminal, exit: TerminalExit) => void,
    readonly ids: AgentIdLearner,
    private readonly journal: ResumeJournal,
  ) {}

  async launch(rt: SessionRuntime, plan: PlanResult, req: LaunchRequest): Promise<void> {
    const { moves, store } = this.ctx;
    if (!plan.ok) {
      // session.json names a dir or an id Mori refuses: the person corrects the file, then starts it.
      if (plan.attention === 'state-invalid') return moves.attention(rt, 'state-invalid', plan.message);
      // An agent command nobody approved is not a failure to retry: it waits for `mori trust`.
      if (plan.code === 'untrusted') return moves.attention(rt, 'needs-trust', plan.message);
      return moves.attention(rt, 'launch-failed', plan.message);
    }
    const { spec, kind } = plan.value;
    const program = checkAgentProgram(rt.profile.name, spec.file, this.ctx.env, spec.cwd);
    if (!program.ok) return moves.attention(rt, 'agent-missing', program.message);
    if (!moves.move(rt, req.reason === null ? 'launch' : 'resume')) return;
    if (req.reason !== null) this.journal.resuming(rt, kind);
    const { backend, note } = await this.backendFor(rt.session.backend);
    const size = this.ctx.options.size ?? DEFAULT_SIZE;
    const launchedAt = this.ctx.clock.wallMs();
    const spawned = await backend.spawn({
      id: rt.id,
      command: spec.file,
      args: spec.args,
      cwd: spec.cwd,
      env: agentEnvironment(this.ctx.env, { sessionId: rt.id, stateDir: rt.stateDir }),
      cols: size.cols,
      rows: size.rows,
      transcriptDir: path.join(rt.stateDir, TRANSCRIPT_DIR),
    });
    if (req.gen !== rt.generation || this.ctx.machine.shuttingDown) {
      // Stopped or taken over meanwhile: this agent must not run.
      if (spawned.ok) background(spawned.value.kill(), `ending a superseded launch of ${rt.name}`);
      return;
    }
    if (!spawned.ok) return moves.attention(rt, 'launch-failed', spawned.message);
    // An agent that picks its own id starts a new one on every launch but a resume: the old id is no
    // longer this session's until the poll learns the new one.
    const learnsId = this.ids.learns(rt, spec.agentSessionId !== null);
    store.write(rt, (s) => ({
      ...s,
      intent: { kind: 'running' },
      agent: { ...s.agent, sessionId: learnsId ? null : (spec.agentSessionId ?? s.agent.sessionId), cwd: spec.agentSessionId !== null ? spec.cwd : s.agent.cwd },
      lastBootId: bootId(),
    }));
    const words = describeLaunch(plan.value);
    const adopt = (): boolean => {
      this.adopt(rt, spawned.value, kind, spec);
      if (learnsId) this.ids.watch(rt, spawned.value, launchedAt);
      return true;
    };
    if (req.reason === null) {
      store.log(rt, `SESSION STARTED - agent ${rt.profile.name} (${words})${note}`);
      adopt();
      return;
    }
    const restarted = req.restartedBecause ? `${req.restartedBecause}: restarted; ` : '';
    this.journal.resumed(rt, req.reason, req.context, `${restarted}${words}${note}`, kind, adopt);
  }

  /** Adopts the tmux session a previous supervisor left running. False when it could not be opened. */
  async reattach(rt: SessionRuntime): Promise<boolean> {
    if (!this.ctx.tmux) return false;
    const r = await this.ctx.tmux.reattach(rt.id, { transcriptDir: path.join(rt.stateDir, TRANSCRIPT_DIR) });
    if (!r.ok) return false;
    if (!this.ctx.moves.move(rt, 'launch')) {
      background(r.value.dispose(), `letting go of ${tmuxSessionName(rt.id)}`);
      return true;
    }
    this.ctx.store.write(rt, (s) => ({ ...s, intent: { kind: 'running' }, lastBootId: bootId() }));
    this.ctx.store.log(rt, `REATTACHED - tmux session ${tmuxSessionName(rt.id)} was still running (pid ${r.value.pid})`);
    this.adopt(rt, r.value, 'reattach', null);
    // The previous supervisor may have ended before it learnt the agent's id: learn it now, counting
    // from when the tmux session was made.
    if (this.ids.learns(rt, rt.session.agent.sessionId !== null)) {
      const made = (await this.ctx.tmux.list().catch(() => [])).find((x) => x.id === rt.id)?.createdAt ?? null;
      if (made !== null && rt.terminal === r.value) this.ids.watch(rt, r.value, made.getTime());
    }
    return true;
  }

  private async backendFor(want: 'tmux' | 'direct'): Promise<{ backend: TerminalBackend; note: string }> {
    const tmux = this.ctx.tmux;
    if (want === 'tmux' && tmux) {
      const a = await tmux.detect();
      if (a.available) return { backend: tmux, note: '' };
      return { backend: this.ctx.direct, note: `; tmux unusable (${a.reason ?? 'unknown'}), running in a direct terminal` };
    }
    if (want === 'tmux') return { backend: this.ctx.direct, note: '; tmux unavailable, running in a direct terminal' };
    return { backend: this.ctx.direct, note: '' };
  }

  /** Takes charge of a running terminal: activity, checkpoints, exit handling. */
  private adopt(rt: SessionRuntime, terminal: Terminal, launch: LaunchKind, spec: LaunchSpec | null): void {
    const { ctx } = this;
    rt.run = { terminal, monitor: null, launch, spec, startedAt: ctx.clock.monoMs(), pendingPrompt: spec?.typePrompt ?? null, nudgedAt: null };
    const run = rt.run;
    rt.activity = 'unknown';
    rt.nextAttemptAt = null;
    const agentId = rt.session.agent.sessionId;
    const activity = ctx.options.activity;
    run.monitor = new ActivityMonitor(terminal, {
      patterns: rt.profile.patterns,
      clock: ctx.clock,
      scheduler: ctx.scheduler,
      ...(activity?.readDelayMs !== undefined ? { readDelayMs: activity.readDelayMs } : {}),
      ...(activity?.settleMs !== undefined ? { settleMs: activity.settleMs } : {}),
      ...(rt.profile.name === 'claude' && agentId !== null
        ? {
            reported: async () => {
              const s = await findClaudeStatus(ctx.env, agentId);
              return s ? activityFromClaudeStatus(s.status) : null;
            },
          }
        : {}),
      onTransition: (t) => {
        if (rt.run !== run) return;
        rt.activity = t.to;
        ctx.emit({ type: 'session.activity', ...ctx.moves.base(rt), from: t.from, to: t.to });
        if (t.to === 'waiting' && run.pendingPrompt !== null) {
          const prompt = run.pendingPrompt;
          run.pendingPrompt = null;
          background(ctx.type(rt, prompt, 'first prompt'), `typing the first prompt of ${rt.name}`);
        }
      },
    });
    this.checkpoints.schedule(rt, terminal);
    terminal.onExit((exit) => this.onExit(rt, terminal, exit));
    // The transcript is the agent's history on disk: a failure to write it is said in the work log
    // and on stderr (once per run of failures, the terminal's own rule), while the agent goes on.
    terminal.onProblem((p) => {
      process.stderr.write(`mori: ${rt.name}: ${p.message}\n`);
      ctx.store.log(rt, `TRANSCRIPT NOT WRITTEN - ${p.message}`);
    });
    if (!ctx.moves.move(rt, 'ran')) return;
    ctx.emit({ type: 'session.started', ...ctx.moves.base(rt), launch, backend: terminal.backend, pid: terminal.pid, agentSessionId: rt.session.agent.sessionId });
  }
}
