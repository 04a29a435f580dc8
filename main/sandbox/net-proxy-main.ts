// The body of a session's proxy process (`mori net-proxy`, started detached by net-proxy-process.ts,
// DESIGN.md §11 "Sandbox"): listens on the session's unix socket with the allowlist proxy, records
// its pid and socket in the proxy's dir, and runs until told to stop (SIGTERM) or until its socket is
// removed or replaced (the dir deleted with its session, or a newer proxy took the path). Its own
// process so that a daemon restart leaves a tmux-held agent on the network. Runs in that process.
import { chmodSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processStartTime } from '../os/process-start.js';
import { parseHostPatterns } from './host-allowlist.js';
import { createNetProxy } from './net-proxy.js';
import { NET_PROXY_STATE, type NetProxyState } from './net-proxy-state.js';

/** How often the process looks whether its socket is still its own: a deleted dir ends it within this. */
const SOCKET_WATCH_MS = 5_000;

export interface NetProxyArgs {
  dir: string;
  socket: string;
  allowedHosts: string[];
}

/** Starts the proxy; resolves once it listens and its state is written. Throws with the problem named. */
export async function runNetProxy(a: NetProxyArgs): Promise<void> {
  const patterns = parseHostPatterns(a.allowedHosts);
  if (patterns instanceof Error) throw patterns;
  const log = (line: string): void => void process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  mkdirSync(a.dir, { recursive: true, mode: 0o700 });
  removeStaleSocket(a.socket);
  const server = createNetProxy(patterns, log);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(a.socket, () => resolve());
  });
  chmodSync(a.socket, 0o600);
  const ino = lstatSync(a.socket).ino;
  const state: NetProxyState = { pid: process.pid, startTime: processStartTime(process.pid), socket: a.socket, allowedHosts: a.allowedHosts };
  const file = path.join(a.dir, NET_PROXY_STATE);
  writeFileSync(`${file}.${process.pid}.tmp`, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(`${file}.${process.pid}.tmp`, file);
  log(`listening on ${a.socket} for ${a.allowedHosts.join(' ') || '(no host)'}`);

  const stop = (why: string): void => {
    log(`stopping: ${why}`);
    server.close();
    if (socketIno(a.socket) === ino) rmSync(a.socket, { force: true });
    rmSync(file, { force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // Detached from any terminal; a hangup of the shell that started the daemon is not ours.
  process.on('SIGHUP', () => {});
  setInterval(() => {
    if (socketIno(a.socket) !== ino) stop(`${a.socket} was removed or replaced`);
  }, SOCKET_WATCH_MS);
}

function socketIno(file: string): number | null {
  try {
    return lstatSync(file).ino;
  } catch {
    return null;
  }
}

/** A socket left by a proxy that was killed is removed; anything else at the path is an error. */
function removeStaleSocket(file: string): void {
  let st;
  try {
    st = lstatSync(file);
  } catch {
    return;
  }
  if (!st.isSocket()) throw new Error(`${file} exists and is not a socket; the proxy will not replace it`);
  rmSync(file);
}
