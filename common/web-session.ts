// How a page served by `mori ui` proves it is the person's (DESIGN.md §11). The link `mori ui` prints
// carries a launch token in its fragment (`#token=…`, never sent to a server, so never in a log); the
// page exchanges it once at SESSION_PATH for a session secret it keeps in sessionStorage (which
// survives a reload of that tab and nothing else), and every WebSocket's first message carries that
// secret. No cookie, no header and no URL holds a credential another local port could see.
// Pure TypeScript, shared by the web host and the renderer.
import * as z from 'zod/mini';
import './zod-english.js';

import { MAX_TOKEN_CHARS } from './web-session-names.js';

export { MAX_TOKEN_CHARS, REMOTES_PATH, SECRET_STORAGE_KEY, SESSION_PATH, TOKEN_PARAM } from './web-session-names.js';

/** A WebSocket's first message: the session secret. Nothing else is read before it. */
export const WebAuthMessage = z.strictObject({ kind: z.literal('auth'), secret: z.string().check(z.minLength(1), z.maxLength(MAX_TOKEN_CHARS)) });
export type WebAuthMessage = z.infer<typeof WebAuthMessage>;

export const WebSessionReply = z.object({
  secret: z.string().check(z.minLength(1), z.maxLength(MAX_TOKEN_CHARS)),
  /** The page's request time limit when `mori ui` was given one (WINDOW_REQUEST_TIMEOUT_ENV); else protocol-client.ts's. */
  requestTimeoutMs: z.optional(z.int().check(z.minimum(100), z.maximum(600_000))),
});
/** Where the page keeps its request time limit beside its secret (sessionStorage: a reload finds both). */
export const REQUEST_TIMEOUT_STORAGE_KEY = 'mori.requestTimeoutMs';
/**
 * The page's request time limit for `mori ui`, in ms (a test's knob: waiting out 30 s to see a
 * request fail costs a test run half a minute). Unset: protocol-client.ts's REQUEST_TIMEOUT_MS.
 */
export const WINDOW_REQUEST_TIMEOUT_ENV = 'MORI_WINDOW_REQUEST_TIMEOUT_MS';

/** The remotes the page may open `/api?host=NAME` to (names as remotes.json holds them; 64 chars at most there). */
export const WebRemotesReply = z.object({ remotes: z.array(z.object({ name: z.string().check(z.minLength(1), z.maxLength(64)) })).check(z.maxLength(1000)) });
export type WebRemotesReply = z.infer<typeof WebRemotesReply>;

/** The close code of a WebSocket whose first message carried no valid secret: reconnecting will not help. */
export const WS_UNAUTHORIZED = 4401;
export const WS_UNAUTHORIZED_REASON = 'not authorized: open a fresh link from `mori ui` (a link opens one tab, once)';
