// The command line of a sandboxed launch (DESIGN.md §11 "Sandbox"): `bwrap <rules> -- <agent argv>`,
// the same for both backends, every launch of the session (new, relaunch, resume by id, hand-off),
// so the agent's hooks and every process it starts run inside. A sandbox that cannot be made is a
// failure the launcher turns into attention(sandbox-unavailable): never a launch without it. Runs in
// the supervisor's process.
import os from 'node:os';
import path from 'node:path';
import type { SandboxSettings } from '../../../common/daemon-settings.js';
import { fail, ok, type Result } from '../../../common/result.js';
import type { SessionSandbox } from '../../../common/session.js';
import type { AgentProfile, Env } from '../../agents/profile.js';
import { bwrapArgs } from '../../sandbox/bwrap-args.js';
import { bwrapProgram, sandboxAvailable } from '../../sandbox/sandbox-probe.js';
import { sessionSandboxRules } from '../../sandbox/session-rules.js';

export interface SandboxedLaunch {
  session: SessionSandbox | undefined;
  settings: Pick<SandboxSettings, 'readWrite' | 'readOnly'>;
  profile: Pick<AgentProfile, 'configPaths'>;
  workDir: string;
  stateDir: string;
  moriHome: string;
  hooks: { spoolDir: string; readable: readonly string[] } | null;
  /** The environment the agent is launched with (HOME, the desktop's sockets). */
  env: Env;
  /** The bubblewrap program (sandboxProgram of the supervisor's own environment). */
  bwrap: string;
  command: string;
  args: readonly string[];
}

/** The bubblewrap program the supervisor runs, from its own environment (MORI_BWRAP, else bwrap on PATH). */
export const sandboxProgram = (supervisorEnv: Env): string => bwrapProgram(supervisorEnv);

/** Whether this session's sandbox can be made here; ok for a session without one. Probed once per process. */
export async function sandboxReady(session: SessionSandbox | undefined, env: Env): Promise<Result<true>> {
  if (session?.on !== true) return ok(true);
  if (process.platform !== 'linux') return fail('failed', `the sandbox is built with bubblewrap on Linux only; this is ${process.platform}`);
  if (session.network === 'allowlist') return fail('failed', 'the sandbox network mode "allowlist" is not available yet; set the session to "full" or "none"');
  return sandboxAvailable(bwrapProgram(env));
}

/** The command and arguments to spawn: the agent's own when the session has no sandbox. */
export function sandboxedCommand(l: SandboxedLaunch): Result<{ command: string; args: string[] }> {
  if (l.session?.on !== true) return ok({ command: l.command, args: [...l.args] });
  const configPaths = l.profile.configPaths?.(l.env) ?? [];
  const rules = sessionSandboxRules(
    { workDir: l.workDir, stateDir: l.stateDir, moriHome: l.moriHome, hooks: l.hooks, configPaths, env: l.env, uid: os.userInfo().uid },
    { network: l.session.network, home: l.session.home, readWrite: l.settings.readWrite, readOnly: l.settings.readOnly },
  );
  // The CLI's own dirs are made before its first run: inside a read-only home it could not make them.
  const made = bwrapArgs(rules, { cwd: l.workDir, makeDirs: [...(l.hooks ? [l.hooks.spoolDir] : []), ...configPaths.filter((p) => path.extname(p) === '')] });
  if (!made.ok) return made;
  return ok({ command: l.bwrap, args: [...made.value, '--', l.command, ...l.args] });
}
