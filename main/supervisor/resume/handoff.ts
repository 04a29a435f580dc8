// Hands a session to an agent of another profile (DESIGN.md §4, "Hand-off"): the running agent is
// ended (its own conversation id kept in agent.previousIds, to go back to), session.json's
// agent.profile changes, and the new agent starts fresh in the same project or worktree with the full
// resume prompt, told who worked before it and why it took over. The session keeps its id, name,
// state files, checkpoints and history. The new profile's command goes through trust as any launch
// does (launch-plan.ts's rule). At a usage limit whose policy goes back at the reset, session.json
// keeps who it was handed over from (`handedOver`, with the checkpoint taken at the hand-off) for
// hand-back.ts. Runs in the supervisor's process.
import { randomUUID } from 'node:crypto';
import { fail, ok, type Result } from '../../../common/result.js';
import type { HandedOver, InterruptReason, ProfileName, SessionRecord } from '../../../common/session.js';
import type { SupervisorEvent } from '../../../common/events.js';
import type { AgentProfile, Env } from '../../agents/profile.js';
import { PROFILES } from '../../agents/profiles.js';
import { background } from '../../background.js';
import { requireAgentCommandTrust } from '../../checks/trust.js';
import type { PowerClock } from '../../power/clock.js';
import { sessionPaths } from '../../state/project-dir.js';
import type { Checkpointer } from '../checkpoints/checkpoint.js';
import type { ExitHandler } from '../exits/exit-handler.js';
import type { AgentLauncher } from '../launch/agent-launcher.js';
import type { PlanResult } from '../launch/planned-launch.js';
import type { MachineState } from '../session/machine-state.js';
import { leaveBehind } from '../session/previous-ids.js';
import type { SessionRuntime } from '../session/session-runtime.js';
import type { SessionStore } from '../session/session-store.js';
import { gatherResumeInputsAsync } from './resume-inputs.js';
import { buildResumePrompt, RESUME_PROMPT_BUDGET } from './resume-prompt.js';

/** Why a hand-off happened when the person gave no reason. */
export const HANDOFF_DEFAULT_REASON = 'asked by the person';

export interface HandoffRequest {
  to: ProfileName;
  /** Why, in the person's words (`usage limit`); default HANDOFF_DEFAULT_REASON. */
  reason?: string | undefined;
  /** The command line of a shell or custom profile; approved apart, as any session's. */
  command?: string | undefined;
  /** The interruption the new agent resumes the session from (a usage limit): its launch is a SESSION RESUMED; absent: a SESSION STARTED. */
  resumes?: InterruptReason | undefined;
  /** Given: the session goes back to this agent at `until` (epoch ms; the limit's reset is `resetAt`), kept in session.json's `handedOver`. */
  goesBack?: { until: number; resetAt: number | null } | undefined;
}

export interface HandoffPorts {
  home: string;
  env: Env;
  clock: PowerClock;
  machine: Readonly<MachineState>;
  store: Pick<SessionStore, 'update' | 'log'>;
  launcher: Pick<AgentLauncher, 'launch' | 'ids'>;
  exits: Pick<ExitHandler, 'detach'>;
  checkpoints: Pick<Checkpointer, 'take'>;
  emit(e: SupervisorEvent): void;
}

/** Ends the session's running agent for `why`, its exit no crash; a failure to end it is noted in the work log. */
export async function endAgent(ports: Pick<HandoffPorts, 'exits' | 'store'>, rt: SessionRuntime, why: string): Promise<void> {
  const run = rt.run;
  if (run === null) return;
  const name = rt.profile.name;
  ports.exits.detach(rt, why);
  await run.terminal.kill().catch((err: unknown) => ports.store.log(rt, `SESSION NOTE - the ${name} agent could not be ended: ${String(err)}`));
  background(run.terminal.dispose(), `releasing the terminal of ${rt.name}`);
}

/** The lines the new agent reads first: who worked before it, which conversation is kept, and why it took over. */
export function handoffPreface(from: AgentProfile, to: AgentProfile, previousId: string | null, reason: string): string {
  const kept = previousId === null ? '' : ` (its conversation ${previousId} is kept)`;
  return [
    `Mori handed this session to you (${to.label}): ${from.label} worked on it before you${kept}, and was handed over because: ${reason}.`,
    `You have none of its conversation: the state files below are the whole hand-over. Keep them current as it did.`,
  ].join('\n');
}

/** Whether `req` can hand `rt` over: another profile, with a command exactly when it takes one. */
function checkRequest(rt: SessionRuntime, req: HandoffRequest): Result<AgentProfile> {
  const to = PROFILES[req.to];
  if (to.name === rt.profile.name) return fail('usage', `session "${rt.name}" already runs ${to.label}; hand it to another profile`);
  if (to.takesCommand === true && req.command === undefined) return fail('usage', `session "${rt.name}": a command is required to hand it to the ${to.name} profile`);
  if (to.takesCommand !== true && req.command !== undefined) return fail('usage', `session "${rt.name}": a command is only for the shell and custom profiles, not ${to.name}`);
  return ok(to);
}

export class Handoff {
  constructor(private readonly ports: HandoffPorts) {}

  async handOff(rt: SessionRuntime, req: HandoffRequest): Promise<Result<void>> {
    const { ports } = this;
    const checked = checkRequest(rt, req);
    if (!checked.ok) return checked;
    const to = checked.value;
    const from = rt.profile;
    const reason = req.reason ?? HANDOFF_DEFAULT_REASON;
    const gen = rt.takeCharge();
    rt.timers.clear('retry', 'limit', 'stuck', 'hand-back');
    rt.cancelRetry();
    // The old agent's id, learnt now if the poll had not yet: it is what the person goes back to.
    const previousId = await ports.launcher.ids.discover(rt);
    const fromCwd = rt.session.agent.cwd;
    await endAgent(ports, rt, `the session is handed to ${to.label}`);
    // Going back, the other's changes are told from here: the work tree as the first agent left it.
    if (req.goesBack !== undefined) await ports.checkpoints.take(rt, 'hand-off');
    if (gen !== rt.generation || ports.machine.shuttingDown) return fail('conflict', `session "${rt.name}" was stopped or restarted during its hand-off to ${to.name}`);
    const back: HandedOver | null =
      req.goesBack === undefined
        ? null
        : { from: from.name, fromId: previousId, fromCwd, to: to.name, at: ports.clock.wallMs(), until: req.goesBack.until, resetAt: req.goesBack.resetAt, checkpoint: rt.session.lastCheckpoint?.snapshot?.commit ?? null };
    const written = await ports.store.update(rt.stateDir, (s) => ({ ...handedOver(s, to.name, previousId, req.command), handedOver: back }));
    if (!written.ok) return written;
    rt.handOver(to);
    ports.store.log(rt, `SESSION HANDED OFF - ${from.name} → ${to.name} (${reason})${previousId === null ? '' : `; ${from.name} session ${previousId} kept in previousIds`}`);
    ports.emit({ type: 'session.handedOff', at: ports.clock.wallMs(), sessionId: rt.id, name: rt.name, from: from.name, to: to.name, reason });
    const plan = await this.plan(rt, written.value, from, previousId, reason);
    if (gen !== rt.generation || ports.machine.shuttingDown) return ok(undefined);
    await ports.launcher.launch(rt, plan, { reason: req.resumes ?? null, context: null, gen, handedOff: true });
    return ok(undefined);
  }

  /** A fresh start of the new profile with the hand-off's preface and the full resume prompt. */
  private async plan(rt: SessionRuntime, session: SessionRecord, from: AgentProfile, previousId: string | null, reason: string): Promise<PlanResult> {
    const { ports } = this;
    const paths = sessionPaths(rt.stateDir, session);
    if (!paths.ok) return { ...paths, attention: 'state-invalid' };
    const approved = requireAgentCommandTrust(ports.home, rt.stateDir, session);
    if (!approved.ok) return approved;
    const inputs = await gatherResumeInputsAsync(rt.stateDir, session, { reason: `a hand-off from ${from.label} (${reason})`, awayMs: null });
    if (!inputs.ok) return inputs;
    const preface = handoffPreface(from, rt.profile, previousId, reason);
    const prompt = `${preface}\n\n${buildResumePrompt({ ...inputs.value, budget: RESUME_PROMPT_BUDGET - preface.length })}`;
    const spec = rt.profile.newSession({ cwd: paths.value.projectDir, prompt, newAgentSessionId: randomUUID(), command: session.agent.command, env: ports.env });
    // The SESSION HANDED OFF entry before it says why: the launch's own says only how.
    return spec.ok ? ok({ kind: 'fresh', spec: spec.value }) : spec;
  }
}

/** session.json once handed to `to`: the old id kept, no id or directory of the new agent yet, no limit or failed resume of the old one. */
function handedOver(s: SessionRecord, to: ProfileName, previousId: string | null, command: string | undefined): SessionRecord {
  const agent = leaveBehind(s.agent, previousId);
  const { command: _old, ...rest } = agent;
  return {
    ...s,
    agent: { ...rest, profile: to, sessionId: null, cwd: null, ...(command !== undefined ? { command } : {}) },
    usageLimit: null,
    failedResume: null,
  };
}
