// The registry of agent profiles (DESIGN.md §5): one line per agent, each agent's folder
// (main/agents/<name>/) holding its profile and capabilities; and the pure choice of how to relaunch
// a dead agent: with its resume command when its own session is on disk, else fresh with the full
// resume prompt. Runs in the supervisor's process.
import { fail, ok, type Result } from '../../common/result.js';
import type { ProfileName } from '../../common/session.js';
import type { AgentProfile, Env, LaunchSpec } from './profile.js';
import { aiderProfile } from './aider/profile.js';
import { claudeProfile } from './claude/profile.js';
import { codexProfile } from './codex/profile.js';
import { geminiProfile } from './gemini/profile.js';
import { opencodeProfile } from './opencode/profile.js';
import { piProfile } from './pi/profile.js';
import { qwenProfile } from './qwen/profile.js';
import { copilotProfile } from './copilot/profile.js';
import { customProfile, shellProfile } from './shell/profile.js';

export const PROFILES: Readonly<Record<ProfileName, AgentProfile>> = {
  claude: claudeProfile,
  codex: codexProfile,
  gemini: geminiProfile,
  opencode: opencodeProfile,
  qwen: qwenProfile,
  copilot: copilotProfile,
  pi: piProfile,
  aider: aiderProfile,
  shell: shellProfile,
  custom: customProfile,
};

export function getProfile(name: string): Result<AgentProfile> {
  const p = (PROFILES as Record<string, AgentProfile | undefined>)[name];
  return p === undefined ? fail('usage', `unknown agent profile "${name}" (one of: ${Object.keys(PROFILES).join(', ')})`) : ok(p);
}

export interface RelaunchInput {
  /** The project dir (fresh starts run here). */
  projectDir: string;
  /** The captured agent session id and the cwd it was captured in. */
  agentSessionId: string | null;
  agentCwd: string | null;
  /** Whether profile.transcriptExists() found the agent's own record of that session. */
  transcriptExists: boolean;
  /** Short prompt for a resume (the agent has its history); full one for a fresh start (it has none). */
  resumePrompt: string | null;
  fullPrompt: string;
  /** A new UUID for a fresh start of a profile that pre-assigns ids. */
  newAgentSessionId: string;
  command?: string | undefined;
  env: Env;
  /**
   * The resume that already failed once: the same program resuming the same agent session is never
   * tried again (whatever its prompt says this time); the relaunch starts fresh instead.
   */
  failedResume?: FailedResume | null | undefined;
  /** The session's resume policy chose a fresh start (resume-choice.ts): the id is not resumed. */
  fresh?: boolean | undefined;
}

export type RelaunchPlan = { kind: 'resume' | 'fresh'; spec: LaunchSpec };

export interface FailedResume {
  file: string;
  agentSessionId: string | null;
}

const sameResume = (a: FailedResume, b: FailedResume): boolean => a.file === b.file && a.agentSessionId === b.agentSessionId;

/**
 * Relaunch a dead agent (DESIGN.md §4): its resume command with the captured id when its session is on
 * disk (profiles without ids resume whenever their record exists); otherwise, or when that exact
 * resume already failed, or the resume policy chose it, a fresh start with the full resume prompt.
 */
export function planRelaunch(profile: AgentProfile, input: RelaunchInput): Result<RelaunchPlan> {
  const needsId = profile.idSource !== 'none';
  const canResume = input.fresh !== true && input.transcriptExists && (!needsId || input.agentSessionId !== null);
  if (canResume) {
    const resumed = profile.resumeSession({
      cwd: input.agentCwd ?? input.projectDir,
      agentSessionId: input.agentSessionId,
      prompt: input.resumePrompt,
      command: input.command,
      env: input.env,
    });
    if (resumed.ok && !(input.failedResume && sameResume(resumed.value, input.failedResume))) return ok({ kind: 'resume', spec: resumed.value });
  }
  const fresh = profile.newSession({
    cwd: input.projectDir,
    prompt: input.fullPrompt,
    newAgentSessionId: input.newAgentSessionId,
    command: input.command,
    env: input.env,
  });
  return fresh.ok ? ok({ kind: 'fresh', spec: fresh.value }) : fresh;
}
