// Qwen Code's hooks (DESIGN.md §4 "Hooks"): the layer is its system-defaults settings file, the
// lowest of its settings layers, named by QWEN_CODE_SYSTEM_DEFAULTS_PATH (its `hooks.<Event>` lists
// are concatenated with the other layers', not gated by folder trust, and a project's `.env` cannot
// redirect it). The same file turns off its usage statistics, telemetry and update check unless the
// person's own settings say otherwise. Its events are the Claude-style ones (hooks/claude-style-events.ts,
// checked in its 0.24.4 bundle); its StopFailure's usage limit is read by limits.ts. Pure: the caller writes the layer's files.
import type { AgentHooks } from '../profile.js';
import { CLAUDE_STYLE_HOOK_EVENTS, claudeStyleReport } from '../hooks/claude-style-events.js';
import { HOOK_TIMEOUT_S, hooksSetting, type HookLayer } from '../hooks/hook-layers.js';
import { qwenHookUsageLimit } from './limits.js';

/** Qwen Code's events Mori registers (its HookEventName enum, 0.24.4: the Claude-style ones). */
export const QWEN_HOOK_EVENTS = CLAUDE_STYLE_HOOK_EVENTS;

/** The variable naming Qwen Code's system-defaults settings file. */
export const QWEN_DEFAULTS_VAR = 'QWEN_CODE_SYSTEM_DEFAULTS_PATH';

/** What Mori's layer turns off: usage statistics, OpenTelemetry export, the update check at start. */
export const QWEN_QUIET_SETTINGS = {
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false },
};

export const qwenHooks: AgentHooks = {
  layer(args, place, env): HookLayer {
    const own = env[QWEN_DEFAULTS_VAR];
    if (own !== undefined && own !== '') {
      return { args: [...args], env: {}, files: [], off: `${QWEN_DEFAULTS_VAR} already names the person's own defaults file (${own}), which Mori does not replace` };
    }
    const text = `${JSON.stringify({ ...QWEN_QUIET_SETTINGS, hooks: hooksSetting(QWEN_HOOK_EVENTS, place, HOOK_TIMEOUT_S) }, null, 2)}\n`;
    return { args: [...args], env: { [QWEN_DEFAULTS_VAR]: place.settingsFile }, files: [{ path: place.settingsFile, text }] };
  },
  report: claudeStyleReport,
  usageLimit: qwenHookUsageLimit,
};
