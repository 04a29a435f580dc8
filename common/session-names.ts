// The agent profiles' names and the session-name pattern, apart from session.ts's zod schemas so the
// window's entry can use them without the schema library. Pure TypeScript.

export const PROFILE_NAMES = ['claude', 'codex', 'gemini', 'opencode', 'aider', 'shell', 'custom'] as const;

/** A session name: a slug, unique per project; it names the state dir `.mori/<name>/`. */
export const SESSION_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
