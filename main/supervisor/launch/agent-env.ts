// The environment an agent is launched with (every launch, both backends): the supervisor's own,
// minus what would change how the agent behaves or leak Mori's internals into it, plus the two
// variables that tell the agent (and the `mori` commands it runs) which session it is. Pure.
import type { Env } from '../../agents/profile.js';

/** Set for every agent: its Mori session and state dir (`mori log`, hooks and scripts read them). */
export const SESSION_ID_VAR = 'MORI_SESSION_ID';
export const STATE_DIR_VAR = 'MORI_STATE_DIR';
/** Kept: the `mori` commands an agent runs must reach the same Mori home as its supervisor. */
const KEPT_MORI_VARS = new Set(['MORI_HOME', SESSION_ID_VAR, STATE_DIR_VAR]);

/** Why a variable is not passed on, or null when it is. */
export function strippedBecause(name: string): string | null {
  // Gemini CLI (and others) run headless, without their interactive UI, when CI is set.
  if (name === 'CI') return 'agents run non-interactively when CI is set';
  // The Electron app's own variables (ELECTRON_RUN_AS_NODE turns any Electron-based tool into Node).
  if (name.startsWith('ELECTRON_')) return "the Electron app's own settings";
  // Bin overrides, probes, sockets, test knobs: the supervisor's, not the agent's.
  if (name.startsWith('MORI_') && !KEPT_MORI_VARS.has(name)) return "Mori's internal settings";
  return null;
}

export function agentEnvironment(base: Env, session: { sessionId: string; stateDir: string }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && strippedBecause(name) === null) env[name] = value;
  }
  env[SESSION_ID_VAR] = session.sessionId;
  env[STATE_DIR_VAR] = session.stateDir;
  return env;
}
