// Each agent's hook registration as a layer Mori owns (DESIGN.md §4 "Hooks"), made per launch and
// never written into the person's or the project's own settings:
//   - Claude Code 2.1.332: `--settings <file>` (merged over the user/project/local settings; hook
//     arrays from every layer all run), the file in Mori's home;
//   - Gemini CLI 0.61.0: its system-defaults file, the lowest settings layer, named by
//     GEMINI_CLI_SYSTEM_DEFAULTS_PATH (its `hooks` arrays concatenate with the other layers'); it
//     reads that file only from a root-owned path closed to others (gemini-defaults-check.ts);
//   - Codex 0.171.0: `--config` overrides holding its hooks and the trust for exactly those hooks
//     (codex/hooks.ts); the person's own `notify` program is left alone;
//   - opencode 1.18.33: a plugin file named in OPENCODE_CONFIG_CONTENT, its last config layer, whose
//     plugin list adds to the others' (opencode/hooks.ts); the plugin writes the spool itself.
// Every hook runs report-script.ts's script into this launch's spool dir. Pure: the caller writes
// `files` before spawning.
import type { ProfileName } from '../../../common/session.js';
import type { Env } from '../profile.js';
import { codexHookOverrides } from '../codex/hooks.js';
import { opencodeConfigContent, opencodePluginText, OPENCODE_CONFIG_VAR } from '../opencode/hooks.js';
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
}

export interface HookLayer {
  /** The launch's arguments with the layer given. */
  args: string[];
  /** Variables added to the agent's environment. */
  env: Record<string, string>;
  /** Files to write (mode 0600) before the agent starts. */
  files: { path: string; text: string }[];
  /** Set when the layer cannot be given (the person's own setting in the way): why. */
  off?: string;
}

/** Claude Code's events Mori registers (names and payloads checked in its 2.1.332 binary). */
export const CLAUDE_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'Notification',
  'Stop',
  'StopFailure',
  'PreCompact',
  'SessionEnd',
] as const;

/** Gemini CLI's events Mori registers (its HookEventName enum, 0.61.0). */
export const GEMINI_HOOK_EVENTS = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'Notification', 'AfterAgent', 'PreCompress', 'SessionEnd'] as const;

/** The variable naming Gemini CLI's system-defaults settings file. */
export const GEMINI_DEFAULTS_VAR = 'GEMINI_CLI_SYSTEM_DEFAULTS_PATH';

/** A hook must never hold the agent up: the script returns in milliseconds; past this the agent gives up on it. */
const HOOK_TIMEOUT_S = 10;
/** Gemini counts hook timeouts in ms. */
const HOOK_TIMEOUT_MS = HOOK_TIMEOUT_S * 1000;

/** `{ hooks: { Event: [{ hooks: [{ type: 'command', command, timeout }] }] } }`, the shape both CLIs read. */
function hooksSetting(events: readonly string[], place: HookPlace, timeout: number): Record<string, unknown> {
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
export function hookLayer(profile: ProfileName, args: readonly string[], place: HookPlace, env: Env = {}): HookLayer | null {
  if (profile === 'claude') {
    const text = `${JSON.stringify({ hooks: hooksSetting(CLAUDE_HOOK_EVENTS, place, HOOK_TIMEOUT_S) }, null, 2)}\n`;
    return { args: ['--settings', place.settingsFile, ...args], env: {}, files: [{ path: place.settingsFile, text }] };
  }
  if (profile === 'gemini') {
    const text = `${JSON.stringify({ hooks: hooksSetting(GEMINI_HOOK_EVENTS, place, HOOK_TIMEOUT_MS) }, null, 2)}\n`;
    return { args: [...args], env: { [GEMINI_DEFAULTS_VAR]: place.settingsFile }, files: [{ path: place.settingsFile, text }] };
  }
  if (profile === 'codex') {
    const config = codexHookOverrides(place.script, place.spoolDir).flatMap((o) => ['--config', o]);
    // After `resume` when it is the subcommand: an option before it would belong to the top level.
    const at = args[0] === 'resume' ? 1 : 0;
    return { args: [...args.slice(0, at), ...config, ...args.slice(at)], env: {}, files: [] };
  }
  if (profile === 'opencode') {
    const content = opencodeConfigContent(place.pluginFile, env);
    if ('off' in content) return { args: [...args], env: {}, files: [], off: content.off };
    return { args: [...args], env: { [OPENCODE_CONFIG_VAR]: content.value }, files: [{ path: place.pluginFile, text: opencodePluginText(place.spoolDir) }] };
  }
  return null;
}
