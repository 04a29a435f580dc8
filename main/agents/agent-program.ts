// Whether the program an agent profile runs can be found, and how to install it when not. Checked
// before every launch (a missing program is said once, with how to install it, instead of a crash
// loop of a pane that cannot start) and by `mori init`, which warns early. Looks the program up the
// way the launch will: the `MORI_AGENT_BIN_<NAME>` override, else the profile's executable (or the
// first word of the command line of a profile that takes one) on the launch environment's PATH; how
// to install it is the profile's word. Any Node process.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { ProfileName } from '../../common/session.js';
import type { AgentProfile, Env } from './profile.js';
import { splitCommandLine } from './command-template.js';
import { PROFILES } from './profiles.js';
import { resolveBin } from './launch-helpers.js';

export type AgentProgram = { found: true; path: string } | { found: false; program: string; install: string };

/** The program a launch would run: for shell/custom, the first word of `command` (else the login shell). */
export function agentProgramName(profile: Pick<AgentProfile, 'name' | 'defaultBin' | 'takesCommand'>, env: Env, command?: string): string {
  if (profile.takesCommand === true) {
    const words = command !== undefined ? splitCommandLine(command) : null;
    if (words?.ok && words.value[0] !== undefined) return words.value[0];
    const shell = env['SHELL'];
    return shell !== undefined && shell !== '' ? shell : profile.defaultBin || 'sh';
  }
  return resolveBin(profile.name, profile.defaultBin, env);
}

/** The program's path: as given (against `cwd`) when it has a slash, else the first executable match on PATH; null when none. */
export function resolveProgram(program: string, env: Env, cwd: string): string | null {
  if (program.includes('/')) {
    const file = path.resolve(cwd, program);
    return executable(file) ? file : null;
  }
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const file = path.join(dir, program);
    if (executable(file)) return file;
  }
  return null;
}

/** Finds the program `mori init` would have the session run (for its warning). */
export function findAgentProgram(profile: Pick<AgentProfile, 'name' | 'defaultBin' | 'takesCommand' | 'install'>, env: Env, command?: string): AgentProgram {
  const program = agentProgramName(profile, env, command);
  const found = resolveProgram(program, env, process.cwd());
  const install = profile.takesCommand === true ? `install "${program}" or put its directory on PATH` : profile.install;
  return found !== null ? { found: true, path: found } : { found: false, program, install };
}

/** What to tell the person when the program is missing: which program, and how to install it. */
export function missingProgramMessage(profile: ProfileName, program: string): string {
  const override = `MORI_AGENT_BIN_${profile.toUpperCase()}`;
  return `the agent's program "${program}" was not found (not on PATH, nor set by ${override}); install it: ${PROFILES[profile].install}`;
}

export type ProgramCheck = { ok: true; path: string } | { ok: false; message: string };

/** Checks that `program` (a launch spec's file) can be run for `profile`, before a launch. */
export function checkAgentProgram(profile: ProfileName, program: string, env: Env, cwd: string): ProgramCheck {
  const found = resolveProgram(program, env, cwd);
  return found !== null ? { ok: true, path: found } : { ok: false, message: missingProgramMessage(profile, program) };
}

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
