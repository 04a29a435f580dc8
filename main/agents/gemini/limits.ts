// Gemini CLI's usage-limit sources (DESIGN.md §4): its limit messages on screen and its tool frame.
// Read from Gemini CLI 0.61.0: a tool box `╭─╮` whose first row is `│ <status> <Tool> …` (status ✓ o
// ⊷ ⊶ ? - x, TOOL_STATUS), output rows `│ … │`, closed by `╰─╯`; its limit dialog is a box without a
// status. It shows its limit in a dialog and does not record it in its chat file, so it has no
// transcript source. Pure.
import type { LimitSources } from '../profile.js';
import { LIMIT_LEAD } from '../usage-limit/limit-detect.js';
import { framedInTool } from '../usage-limit/tool-output.js';

const GEMINI_TOOL_HEAD = /^\s*│\s*[✓o⊷⊶?x-]\s+\S/u;

export const geminiLimits: LimitSources = {
  shapes: [
    // 0.61.0: "Usage limit reached for gemini-2.5-pro." (reset on the next line: "Access resets at 3:45 PM PDT.").
    new RegExp(LIMIT_LEAD + String.raw`Usage limit reached for \S`, 'iu'),
    // 0.1.x: "⚡ You have reached your daily quota limit."
    new RegExp(LIMIT_LEAD + String.raw`You have reached your daily (?:[\w.-]+ )?quota limit\b`, 'iu'),
  ],
  inToolOutput: (screen, start) => framedInTool(screen, start, /^\s*│/u, /^\s*╭/u, GEMINI_TOOL_HEAD),
};
