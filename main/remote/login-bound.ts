// How long an ssh login to a remote may take before Mori says it did not finish (DESIGN.md §12,
// sessions on other hosts): one bound for `mori ls`, every `host:session` command and the app's
// standing connections, given to ssh as its ConnectTimeout (the TCP connect, the banner and the key
// exchange), so a host that accepts TCP and never speaks ssh costs this, not a request's 30 s.
// Runs in the CLI and the Electron main process (plain Node).

/** How long a login and `mori ls`'s listing may take: a reachable host answers well within it; an unreachable one costs no more. */
export const LIST_TIMEOUT_MS = 2_000;
/** Overrides LIST_TIMEOUT_MS: a heavily loaded machine (a shared test runner) needs longer to log in at all. */
export const LIST_TIMEOUT_ENV = 'MORI_REMOTE_LIST_TIMEOUT_MS';

/** The bound: LIST_TIMEOUT_MS unless the environment gives a positive number of milliseconds. */
export function listTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env[LIST_TIMEOUT_ENV]);
  return Number.isInteger(v) && v > 0 ? v : LIST_TIMEOUT_MS;
}

/** The bound as ssh's ConnectTimeout takes it: whole seconds, rounded up, at least one. */
export function loginTimeoutSeconds(env: NodeJS.ProcessEnv = process.env): number {
  return Math.max(1, Math.ceil(listTimeoutMs(env) / 1000));
}
