// The sandbox a session's checks run in (DESIGN.md §11 "Sandbox"): environment.md's approved test
// command and its services' start commands run as the agent does, inside the session's bubblewrap
// sandbox (the project read-write, its state files, the rest read-only or hidden), so an approved
// command is no way out of it. No agent dirs or hooks; in `allowlist` mode a check has no proxy: its
// own loopback only. Runs in the supervisor and the CLI.
import os from 'node:os';
import { ok, type Result } from '../../common/result.js';
import type { SessionSandbox } from '../../common/session.js';
import type { Env } from '../agents/profile.js';
import { bwrapArgs } from './bwrap-args.js';
import { bwrapProgram } from './sandbox-probe.js';
import { sessionSandboxRules } from './session-rules.js';

/** A command line as the checks spawn it: the program and its arguments. */
export interface SpawnLine {
  command: string;
  args: string[];
}

/** Puts a check's command line inside the session's sandbox. */
export type CheckWrap = (argv: readonly string[], opts?: { outlivesCaller?: boolean }) => Result<SpawnLine>;

export interface CheckPlace {
  projectDir: string;
  stateDir: string;
  moriHome: string;
  /** The environment the checks run with (HOME, the desktop's sockets), and MORI_BWRAP. */
  env: Env;
  /** The paths every sandbox binds (settings.json `sandbox`). */
  paths?: { readWrite: readonly string[]; readOnly: readonly string[] };
}

/** The wrapping of a sandboxed session's checks; null for a session without a sandbox. */
export function checkSandbox(session: SessionSandbox | undefined, at: CheckPlace): CheckWrap | null {
  if (session?.on !== true) return null;
  const rules = sessionSandboxRules(
    { workDir: at.projectDir, stateDir: at.stateDir, moriHome: at.moriHome, hooks: null, configPaths: [], env: at.env, uid: os.userInfo().uid },
    { network: session.network === 'full' ? 'full' : 'none', home: session.home, readWrite: at.paths?.readWrite ?? [], readOnly: at.paths?.readOnly ?? [] },
  );
  const program = bwrapProgram(at.env);
  return (argv, opts) => {
    const made = bwrapArgs(rules, { cwd: at.projectDir });
    if (!made.ok) return made;
    // A service outlives the verification (and the CLI) that started it: its sandbox is not tied to that process.
    const args = opts?.outlivesCaller === true ? made.value.filter((a) => a !== '--die-with-parent') : made.value;
    return ok({ command: program, args: [...args, '--', ...argv] });
  };
}
