// Whether the program an agent profile runs can be found, and how to install it when not: `mori init`
// warns early instead of the first start failing. Looks the program up the way the launch will: the
// `MORI_AGENT_BIN_<NAME>` override, else the profile's executable (or the first word of the
// shell/custom command line) on the launch environment's PATH. Any Node process.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { AgentProfile, Env } from './profile.js';
import { splitCommandLine } from './command-template.js';
import { resolveBin } from './launch-helpers.js';

export type AgentProgram = { found: true; path: string } | { found: false; program: string; install: string };

/** How each agent CLI is installed, per its own documentation. */
const INSTALL: Record<string, string> = {
  claude: 'npm install -g @anthropic-ai/claude-code',
  codex: 'npm install -g @openai/codex',
  gemini: 'npm install -g @google/gemini-cli',
  aider: 'python -m pip install aider-install && aider-install',
};

/** The program a launch would run: for shell/custom, the first word of `command` (else the login shell). */
export function agentProgramName(profile: Pick<AgentProfile, 'name' | 'defaultBin'>, env: Env, command?: string): string {
  if (profile.name === 'shell' || profile.name === 'custom') {
    const words = command !== undefined ? splitCommandLine(command) : null;
    if (words?.ok && words.value[0] !== undefined) return words.value[0];
    const shell = env['SHELL'];
    return shell !== undefined && shell !== '' ? shell : profile.defaultBin || 'sh';
  }
  return resolveBin(profile.name, profile.defaultBin, env);
}

export function findAgentProgram(profile: Pick<AgentProfile, 'name' | 'defaultBin'>, env: Env, command?: string): AgentProgram {
  const program = agentProgramName(profile, env, command);
  const install = INSTALL[profile.name] ?? `install "${program}" or put its directory on PATH`;
  if (program.includes('/')) {
    const abs = path.resolve(program);
    return executable(abs) ? { found: true, path: abs } : { found: false, program, install };
  }
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, program);
    if (executable(candidate)) return { found: true, path: candidate };
  }
  return { found: false, program, install };
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
