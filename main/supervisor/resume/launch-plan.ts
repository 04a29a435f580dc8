// Turns "start this session" into a command line (DESIGN.md §4, §5): a new agent session with the
// first prompt, or a relaunch — the profile's resume command with the captured agent session id when
// the agent's own record of it exists, else a fresh start with the full resume prompt, and never the
// same failed resume twice (planRelaunch decides; this gathers its inputs). The shell and custom
// profiles run a command line from session.json, which the agent or a cloned repository can write:
// it runs only when the person approved it (trust.ts), else the plan fails with code `untrusted`.
// The paths and the agent session id come from session.json too: the project is where the state dir
// lies, the recorded cwd must be inside it and the id must have its profile's form, else the plan
// fails as `state-invalid` naming the file and the field (project-dir.ts, agent-id.ts).
// Runs in the supervisor.
import { randomUUID } from 'node:crypto';
import { ok, type Failure } from '../../../common/result.js';
import type { InterruptReason, SessionRecord } from '../../../common/session.js';
import { checkAgentId } from '../../agents/agent-id.js';
import { firstPrompt } from '../../agents/first-prompt.js';
import type { AgentProfile, Env } from '../../agents/profile.js';
import { planRelaunch, type FailedResume } from '../../agents/profiles.js';
import { requireAgentCommandTrust } from '../../checks/trust.js';
import { sessionPaths, type SessionPaths } from '../../state/project-dir.js';
import { sessionFilePath } from '../../state/session-file.js';
import type { PlanFailure, PlannedLaunch } from '../launch/planned-launch.js';
import { gatherResumeInputsAsync } from './resume-inputs.js';
import { interruptionFor } from './interrupt-words.js';
import { buildResumePrompt, RESUME_PROMPT_BUDGET } from './resume-prompt.js';
import { pendingRollbackNotice, type RollbackNotice } from './rollback-notice.js';
import { chooseResume, DEFAULT_RESUME, NO_CONTEXT_USAGE, resumeModeOf, type ContextUsageSource, type ResumeChoice, type ResumeDefaults } from './resume-choice.js';

/** A resumed agent keeps its conversation, so its prompt holds only the headline, files and checks. */
const RESUME_WITH_CONTEXT_BUDGET = 2_000;

/** A planned launch; a relaunch's may carry the rollback note its prompts deliver, for the caller to clear (rollbackNoticeCleared). */
export type LaunchPlan = { ok: true; value: PlannedLaunch & { delivers?: RollbackNotice } } | PlanFailure;

const stateInvalid = (f: Failure): PlanFailure => ({ ...f, attention: 'state-invalid' });

/** The checked paths and agent session id of `session`; a state-invalid failure naming the file and field. */
function checkedSession(stateDir: string, session: SessionRecord): { ok: true; paths: SessionPaths; agentSessionId: string | null } | PlanFailure {
  const paths = sessionPaths(stateDir, session);
  if (!paths.ok) return stateInvalid(paths);
  const id = checkAgentId(session.agent.profile, session.agent.sessionId, `${sessionFilePath(stateDir)}: agent.sessionId`);
  if (!id.ok) return stateInvalid(id);
  return { ok: true, paths: paths.value, agentSessionId: id.value };
}

/** Why the agent's own session is not resumed (it has ids, but none was captured, or its record is gone, or that resume failed). */
function whyNotResumed(profile: AgentProfile, id: string | null, transcriptExists: boolean): string | undefined {
  if (profile.idSource === 'none') return undefined;
  if (id === null) return `no ${profile.label} session id was captured`;
  if (!transcriptExists) return `${profile.label} cannot resume session ${id}: its record of it is not on disk`;
  return `resuming ${profile.label} session ${id} failed before`;
}

/** Where the session's approvals are looked up: the Mori home, and the session's state dir. */
export interface TrustPlace {
  home: string;
  stateDir: string;
}

export function planNewLaunch(profile: AgentProfile, session: SessionRecord, env: Env, trust: TrustPlace): LaunchPlan {
  const checked = checkedSession(trust.stateDir, session);
  if (!checked.ok) return checked;
  const approved = requireAgentCommandTrust(trust.home, trust.stateDir, session);
  if (!approved.ok) return approved;
  const { projectDir } = checked.paths;
  const spec = profile.newSession({
    cwd: projectDir,
    prompt: firstPrompt({ projectDir, name: session.name, task: session.task }),
    newAgentSessionId: randomUUID(),
    command: session.agent.command,
    env,
  });
  return spec.ok ? ok({ kind: 'new', spec: spec.value }) : spec;
}

export interface RelaunchRequest {
  profile: AgentProfile;
  /** The Mori home holding the approvals. */
  home: string;
  stateDir: string;
  session: SessionRecord;
  reason: InterruptReason;
  /** How long the session was away, when known (asleep, offline). */
  awayMs?: number | null;
  env: Env;
  failedResume: FailedResume | null;
  /** The daemon's resume defaults (default DEFAULT_RESUME). */
  resumeDefaults?: ResumeDefaults | undefined;
  /** Where the conversation's last context is read (default: unknown). */
  contextUsage?: ContextUsageSource | undefined;
  /** Lines heading both prompts (hand-back.ts: what another agent did meanwhile). */
  preface?: string | undefined;
  /** By id whatever the resume policy says (a session handed back to its first agent: its conversation is why it goes back). */
  byId?: boolean | undefined;
}

/** The resume policy's choice, reading the conversation's size only when `auto` needs it and an id can be resumed. */
async function choose(req: RelaunchRequest, agentSessionId: string | null, cwd: string, transcriptExists: boolean): Promise<ResumeChoice> {
  const defaults = req.resumeDefaults ?? DEFAULT_RESUME;
  const mode = req.byId === true ? 'by-id' : resumeModeOf(req.session, defaults);
  const measurable = mode === 'auto' && transcriptExists && agentSessionId !== null;
  const source = req.contextUsage ?? NO_CONTEXT_USAGE;
  const context = measurable ? await source.lastContext({ profile: req.profile.name, agentSessionId, cwd, stateDir: req.stateDir }).catch(() => undefined) : undefined;
  return chooseResume(mode, defaults.contextSharePercent, context);
}

const headed = (preface: string | undefined, prompt: string): string => (preface === undefined ? prompt : `${preface}\n\n${prompt}`);

export async function planRelaunchLaunch(req: RelaunchRequest): Promise<LaunchPlan> {
  const { profile, session } = req;
  const checked = checkedSession(req.stateDir, session);
  if (!checked.ok) return checked;
  const approved = requireAgentCommandTrust(req.home, req.stateDir, session);
  if (!approved.ok) return approved;
  const { projectDir, agentCwd: checkedCwd } = checked.paths;
  const agentSessionId = checked.agentSessionId;
  const interrupted: SessionRecord = { ...session, intent: { kind: 'interrupted', reason: req.reason } };
  const inputs = await gatherResumeInputsAsync(req.stateDir, interrupted, interruptionFor(req.reason, req.awayMs ?? null));
  if (!inputs.ok) return inputs;
  const agentCwd = checkedCwd ?? projectDir;
  const transcriptExists = await profile.transcriptExists({ agentSessionId, cwd: agentCwd }, req.env).catch(() => false);
  const choice = await choose(req, agentSessionId, agentCwd, transcriptExists);
  const plan = planRelaunch(profile, {
    projectDir,
    agentSessionId,
    agentCwd: checkedCwd,
    transcriptExists,
    // The resumed agent has its conversation: it needs why it stopped and what the checks found
    // (failing first), not the whole state again.
    resumePrompt: headed(req.preface, buildResumePrompt({ ...inputs.value, budget: RESUME_WITH_CONTEXT_BUDGET })),
    fullPrompt: headed(req.preface, buildResumePrompt({ ...inputs.value, budget: RESUME_PROMPT_BUDGET - (req.preface?.length ?? 0) })),
    newAgentSessionId: randomUUID(),
    command: session.agent.command,
    env: req.env,
    failedResume: req.failedResume,
    fresh: choice.kind === 'fresh',
  });
  if (!plan.ok) return plan;
  // The prompts above carry the rollback note: this launch delivers it.
  const notice = pendingRollbackNotice(req.stateDir);
  const chosenFresh = choice.kind === 'fresh' && transcriptExists && (profile.idSource === 'none' || agentSessionId !== null);
  const whyFresh = plan.value.kind !== 'fresh' ? undefined : chosenFresh ? choice.why : whyNotResumed(profile, agentSessionId, transcriptExists);
  const whyById = plan.value.kind === 'resume' ? `by id: ${choice.why}` : undefined;
  // Only a conversation whose record is on disk can be gone back to.
  const leavesBehind = plan.value.kind === 'fresh' && transcriptExists && agentSessionId !== null && plan.value.spec.agentSessionId !== agentSessionId ? agentSessionId : undefined;
  return ok({
    kind: plan.value.kind,
    spec: plan.value.spec,
    ...(whyFresh !== undefined ? { whyFresh } : {}),
    ...(whyById !== undefined ? { whyById } : {}),
    ...(leavesBehind !== undefined ? { leavesBehind } : {}),
    ...(notice !== null ? { delivers: notice } : {}),
  });
}
