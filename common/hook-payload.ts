// The fields Mori reads from an agent's hook call (DESIGN.md §4 "Hooks"). A hook payload is written
// by the agent (or anything running as the person) into Mori's spool: hostile input. Only these
// fields are read, each bounded; everything else in the object is ignored. Pure, shared.
import * as z from 'zod/mini';
import './zod-english.js';

/** Longer than any id, event or type an agent sends: anything past it is not one of ours. */
const SHORT = 200;

export const HookPayload = z.looseObject({
  /** Claude Code, Gemini CLI: the agent's own session id (validated per profile before use). */
  session_id: z.optional(z.string().check(z.maxLength(SHORT))),
  hook_event_name: z.optional(z.string().check(z.maxLength(SHORT))),
  /** SessionStart: startup | resume | clear | compact (claude, gemini without compact). */
  source: z.optional(z.string().check(z.maxLength(SHORT))),
  /** Claude Code's Notification: permission_prompt | idle_prompt | elicitation_dialog | … */
  notification_type: z.optional(z.string().check(z.maxLength(SHORT))),
  /** Codex's notify: agent-turn-complete. */
  type: z.optional(z.string().check(z.maxLength(SHORT))),
});
export type HookPayload = z.infer<typeof HookPayload>;
