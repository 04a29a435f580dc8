// Claude Code's hooks (DESIGN.md §4 "Hooks"): the layer is `--settings <file>` (merged over the
// user/project/local settings; hook arrays from every layer all run), the file in Mori's home; its
// events are the Claude-style ones (hooks/claude-style-events.ts) and its StopFailure's usage limit
// is read by limit-hook.ts. Pure: the caller writes the layer's files.
import type { AgentHooks } from '../profile.js';
import { CLAUDE_STYLE_HOOK_EVENTS, claudeStyleReport } from '../hooks/claude-style-events.js';
import { HOOK_TIMEOUT_S, hooksSetting } from '../hooks/hook-layers.js';
import { hookUsageLimit } from './limit-hook.js';

/** Claude Code's events Mori registers (names and payloads checked in its 2.1.332 binary). */
export const CLAUDE_HOOK_EVENTS = CLAUDE_STYLE_HOOK_EVENTS;

export const claudeHooks: AgentHooks = {
  layer(args, place) {
    const text = `${JSON.stringify({ hooks: hooksSetting(CLAUDE_HOOK_EVENTS, place, HOOK_TIMEOUT_S) }, null, 2)}\n`;
    return { args: ['--settings', place.settingsFile, ...args], env: {}, files: [{ path: place.settingsFile, text }] };
  },
  report: claudeStyleReport,
  usageLimit: hookUsageLimit,
};
