// The control API's size limits, apart from ipc.ts's zod schemas so the window's entry can check
// against them without the schema library. Pure TypeScript.

/** Keeps one message bounded: a line longer than this is refused (a pasted file goes in chunks). */
export const IPC_MAX_LINE_CHARS = 1_000_000;

/** The longest text one request carries (a state file's save, a log entry, a prompt): half a line, room for the rest. */
export const IPC_MAX_TEXT_CHARS = IPC_MAX_LINE_CHARS / 2;
