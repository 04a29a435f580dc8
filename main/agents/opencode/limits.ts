// opencode's usage-limit sources (DESIGN.md §4): its limit messages on screen and its tool frame.
// Read from opencode 1.18.33: a block tool is rows with a left border `┃` (title `# …`, then
// `$ <command>`, then the output); a user's message is a `┃` block too, but never starts with either.
// Pure.
import type { LimitSources } from '../profile.js';
import { LIMIT_LEAD } from '../usage-limit/limit-detect.js';
import { framedInTool } from '../usage-limit/tool-output.js';

const OPENCODE_TOOL_HEAD = /^\s*┃\s*(?:#|\$) /u;

export const opencodeLimits: LimitSources = {
  shapes: [
    // 1.18.33: "Usage limit reached. It will reset in 2 hours 5 minutes. …", "Go usage limit reached. …".
    new RegExp(LIMIT_LEAD + String.raw`(?:[\w.-]{1,40} )?usage limit reached\. It will reset in\b`, 'iu'),
    // 1.18.33: "Free usage exceeded, subscribe to Go" (no reset time).
    new RegExp(LIMIT_LEAD + String.raw`Free usage exceeded, subscribe to Go\b`, 'iu'),
  ],
  inToolOutput: (screen, start) => framedInTool(screen, start, /^\s*┃/u, null, OPENCODE_TOOL_HEAD),
};
