// Each agent's hook registration is a layer Mori owns (DESIGN.md §4 "Hooks"), made per launch and
// never written into the person's or the project's own settings; each agent's hooks capability
// (main/agents/<name>/hooks.ts) says how it takes one (a settings file, a defaults file, config
// overrides, a plugin). This file holds the layer's shape, the settings block two CLIs share, the
// time limits and the call that asks the profile. Every hook runs report-script.ts's script into this
// launch's spool dir. Pure: the caller writes `files` before spawning.
import type { AgentProfile, Env } from '../profile.js';
import { reportCommand } from './report-script.js';

/** Where this launch's hook calls go. */
export interface HookPlace {
  /** The report script (`$MORI_HOME/hooks/report.sh`). */
  script: string;
  /** This launch's spool dir (`$MORI_HOME/hooks/<nonce>/`). */
  spoolDir: string;
  /** Where this launch's settings layer is written, for agents that take one. */
  settingsFile: string;
  /** Where this launch's plugin is written, for agents that take one (`$MORI_HOME/hooks/<nonce>.mjs`). */
  pluginFile: string;
  /** Where this launch's plugin directory is written, for agents that load one (`$MORI_HOME/hooks/<nonce>.plugin/`). */
  pluginDir: string;
}

export interface HookLayer {
  /** The launch's arguments with the layer given. */
  args: string[];
  /** Variables added to the agent's environment. */
  env: Record<string, string>;
  /** Files to write (mode 0600, their dirs made 0700) before the agent starts. */
  files: { path: string; text: string }[];
  /** Set when the layer cannot be given (the person's own setting in the way): why. */
  off?: string;
}

/** A hook must never hold the agent up: the script returns in milliseconds; past this the agent gives up on it. */
export const HOOK_TIMEOUT_S = 10;
/** Gemini counts hook timeouts in ms. */
export const HOOK_TIMEOUT_MS = HOOK_TIMEOUT_S * 1000;

/** `{ hooks: { Event: [{ hooks: [{ type: 'command', command, timeout }] }] } }`, the shape both CLIs read. */
export function hooksSetting(events: readonly string[], place: HookPlace, timeout: number): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const event of events) {
    hooks[event] = [{ hooks: [{ type: 'command', command: reportCommand(place.script, place.spoolDir, event), timeout }] }];
  }
  return hooks;
}

/**
 * The layer for a launch of `profile` with `args` in environment `env` (only read: the person's own
 * setting a layer joins); null for agents without hooks (shell, aider, custom).
 */
export function hookLayer(profile: Pick<AgentProfile, 'hooks'>, args: readonly string[], place: HookPlace, env: Env = {}): HookLayer | null {
  return profile.hooks?.layer(args, place, env) ?? null;
}
