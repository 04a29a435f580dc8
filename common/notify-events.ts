// The events that may notify (DESIGN.md §12's `notifications.events`), apart from daemon-settings.ts's
// zod schema so the window's entry can list them without the schema library. Pure TypeScript.

export const NOTIFY_EVENTS = ['verify-failed', 'needs-input', 'crash-loop', 'resumed', 'usage-limit', 'handed-off', 'context-over'] as const;
