// The fields Mori reads from an agent's hook call (DESIGN.md §4 "Hooks"). A hook payload is written
// by the agent (or anything running as the person) into Mori's spool: hostile input. Only these
// fields are read, each bounded; everything else in the object is ignored. Pure, shared.
import { z } from 'zod';

/** Longer than any id, event or type an agent sends: anything past it is not one of ours. */
const SHORT = 200;

export const HookPayload = z
  .object({
    /** Claude Code, Gemini CLI: the agent's own session id (validated per profile before use). */
    session_id: z.string().max(SHORT).optional(),
    hook_event_name: z.string().max(SHORT).optional(),
    /** SessionStart: startup | resume | clear | compact (claude, gemini without compact). */
    source: z.string().max(SHORT).optional(),
    /** Claude Code's Notification: permission_prompt | idle_prompt | elicitation_dialog | … */
    notification_type: z.string().max(SHORT).optional(),
    /** Codex's notify: agent-turn-complete. */
    type: z.string().max(SHORT).optional(),
  })
  .passthrough();
export type HookPayload = z.infer<typeof HookPayload>;
