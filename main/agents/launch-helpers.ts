// Small pure helpers shared by the agent profiles: which executable to run (with the
// `MORI_AGENT_BIN_<NAME>` override tests use to substitute a fake agent), where the agent keeps
// its files (HOME and config-dir variables), the session-id forms profiles share, and keeping a
// prompt from being read as a flag.
import os from 'node:os';
import path from 'node:path';
import type { AgentIdForm, Env } from './profile.js';

/** `MORI_AGENT_BIN_CLAUDE=/path/to/fake` replaces `claude`; unset or empty keeps the default. */
export function resolveBin(profileName: string, defaultBin: string, env: Env): string {
  const key = `MORI_AGENT_BIN_${profileName.toUpperCase()}`;
  const override = env[key];
  return override !== undefined && override !== '' ? override : defaultBin;
}

/** The home directory the agent will see: the launch env's HOME, else this process's. */
export function homeDir(env: Env): string {
  const home = env['HOME'];
  return home !== undefined && home !== '' ? home : os.homedir();
}

/** A config dir from `variable` when set, else `<home>/<fallback>` (e.g. CLAUDE_CONFIG_DIR, ~/.claude). */
export function configDir(env: Env, variable: string, fallback: string): string {
  const v = env[variable];
  return v !== undefined && v !== '' ? v : path.join(homeDir(env), fallback);
}

/** A prompt passed as an argument: typing.ts's one rule (a leading '-' is not read as a flag). */
export { promptArgument as positionalPrompt } from './typing.js';

/** A UUID in the canonical 8-4-4-4-12 hex form, as claude's --session-id demands. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id form of agents that name sessions by UUID: claude and gemini take one Mori picks, codex picks its own. */
export const UUID_ID_FORM: AgentIdForm = { pattern: UUID_PATTERN, words: 'a UUID (8-4-4-4-12 hex digits)' };

/**
 * Ids of the shell, custom and other profiles: letters, digits, `.`, `_`, `-` — no shell or tmux
 * metacharacter, no space, no path separator, no leading-dash problem worth a quote. 128 bounds
 * a name any tool would choose (a UUID is 36) while leaving room for long slugs.
 */
export const PLAIN_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** The id form of profiles that do not say theirs. */
export const PLAIN_ID_FORM: AgentIdForm = { pattern: PLAIN_ID_PATTERN, words: '1-128 letters, digits, ".", "_" or "-"' };
