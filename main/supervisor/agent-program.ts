// Whether an agent's program can be started here, checked before every launch (DESIGN.md §5): a
// program that is missing is said once, with how to install it, instead of a crash loop of a pane
// that cannot start. `mori init` uses the same check to warn early. Any Node process.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { ProfileName } from '../../common/session.js';
import type { Env } from '../agents/profile.js';

/** How each agent CLI is installed, for the message that says it is missing. */
export const INSTALL_HINTS: Readonly<Record<ProfileName, string>> = {
  claude: 'npm install -g @anthropic-ai/claude-code',
  codex: 'npm install -g @openai/codex',
  gemini: 'npm install -g @google/gemini-cli',
  aider: 'python -m pip install aider-install && aider-install',
  shell: 'check the command in session.json (`mori init --command`)',
  custom: 'check the command in session.json (`mori init --command`)',
};

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program's path: as given when it has a slash, else the first executable match on PATH; null when none. */
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

/** What to tell the person when the program is missing: which program, and how to install it. */
export function missingProgramMessage(profile: ProfileName, program: string): string {
  const override = `MORI_AGENT_BIN_${profile.toUpperCase()}`;
  return `the agent's program "${program}" was not found (not on PATH, nor set by ${override}); install it: ${INSTALL_HINTS[profile]}`;
}

export type ProgramCheck = { ok: true; path: string } | { ok: false; message: string };

/** Checks that `program` (a launch spec's file) can be run for `profile`. */
export function checkAgentProgram(profile: ProfileName, program: string, env: Env, cwd: string): ProgramCheck {
  const found = resolveProgram(program, env, cwd);
  return found !== null ? { ok: true, path: found } : { ok: false, message: missingProgramMessage(profile, program) };
}
