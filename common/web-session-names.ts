// The names a page served by `mori ui` and its web host agree on to connect (common/web-session.ts
// says how the page proves it is the person's): where it exchanges the link's token, where it asks
// for the remotes, and where it keeps its secret. Apart from web-session.ts's schemas so that the
// window's entry can start connecting before zod has loaded (renderer/early-connect.ts). Pure
// TypeScript.

/** Where the page trades the launch token for its session secret (POST, the token as the body). */
export const SESSION_PATH = '/session';
/** Where the page asks which remotes this host reaches (POST, the session secret as the body). */
export const REMOTES_PATH = '/remotes';
/** Where the page's WebSockets speak the control API (`?host=NAME` for a remote). */
export const API_PATH = '/api';
/** The fragment parameter of the printed link that holds the launch token. */
export const TOKEN_PARAM = 'token';
/** The sessionStorage key of the session secret. */
export const SECRET_STORAGE_KEY = 'mori.sessionSecret';
/** Bounds what the web host reads of an exchange's body, and a secret's length: a token is 43 chars. */
export const MAX_TOKEN_CHARS = 256;
