// The events that may notify (DESIGN.md §12's `notifications.events`), apart from daemon-settings.ts's
// zod schema so the window's entry can list them without the schema library. Pure TypeScript.

export const NOTIFY_EVENTS = ['verify-failed', 'needs-input', 'crash-loop', 'resumed', 'usage-limit', 'handed-off', 'context-over'] as const;

/**
 * What a target off the machine can be sent (DESIGN.md §13 "Notices off the machine"): the desktop's
 * kinds, and a session that finished. `usage-limit` is the limit and the resume after it.
 */
export const TARGET_EVENTS = ['needs-input', 'verify-failed', 'crash-loop', 'usage-limit', 'finished', 'handed-off', 'resumed'] as const;
export type TargetEvent = (typeof TARGET_EVENTS)[number];
/** A new target's events unless it names its own: all but `resumed` (after sleep or an outage), which is news only at the desk. */
export const TARGET_DEFAULT_EVENTS: readonly TargetEvent[] = TARGET_EVENTS.filter((e) => e !== 'resumed');
export const TARGET_KINDS = ['ntfy', 'webhook'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];
