// Errors as values at the boundaries (CLI --json, socket, IPC): { ok: false, code, message }.
// Pure TypeScript, shared by every process.

/**
 * Why an operation failed, named for what a caller can do about it. Callers decide by the code, never
 * by a message's words (a lint test holds it).
 */
export const ERROR_CODES = [
  'usage', // the request was malformed: fix the call (CLI exit 2)
  'not-found', // no such session, dir or file (CLI exit 3)
  'unreadable', // a state file exists but is corrupt or cannot be read (CLI exit 3)
  'conflict', // the thing exists already or is held by another process (CLI exit 2)
  'untrusted', // it would run a command the person has not approved: `mori trust` (CLI exit 1)
  'forbidden', // only the person may do this (an approval, the daemon's settings, stopping it), and a supervised agent asked (CLI exit 1)
  'failed', // the action ran and did not succeed, or a check failed (CLI exit 1)
  'disconnected', // the connection to the daemon is not open, or closed before the answer (CLI exit 1)
  'not-running', // the session has no live agent yet but is coming up (starting, resuming, backoff…): try again shortly (CLI exit 1)
  'protocol', // the daemon speaks another protocol version, or did not answer hello: replace it (CLI exit 1)
  'busy', // the agent is working: confirm to go ahead anyway (a rollback), or wait (CLI exit 1)
  'timeout', // the daemon did not answer within the request's time (protocol-client.ts): it may be stuck; try again, or restart it (CLI exit 1)
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface Failure {
  ok: false;
  code: ErrorCode;
  message: string;
}

export type Result<T> = { ok: true; value: T } | Failure;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string): Failure => ({ ok: false, code, message });

/** CLI exit code for each failure kind (DESIGN.md §9: 0 ok, 1 failed, 2 usage, 3 not found/unreadable). */
export const exitCodeFor = (code: ErrorCode): number =>
  ({ usage: 2, conflict: 2, 'not-found': 3, unreadable: 3, untrusted: 1, forbidden: 1, failed: 1, disconnected: 1, 'not-running': 1, protocol: 1, busy: 1, timeout: 1 })[code];
