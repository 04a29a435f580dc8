// Starting, checking and stopping a session's proxy process (DESIGN.md §11 "Sandbox"): one detached
// process per sandboxed session in `allowlist` mode (`<node> <Mori's entry> net-proxy ...`), its own
// process group and session, so it outlives the daemon that started it and a restarted daemon finds
// it again by its dir. Runs in the daemon (and in tests).
import { spawn } from 'node:child_process';
import { closeSync, lstatSync, mkdirSync, openSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fail, ok, type Result } from '../../common/result.js';
import { pidAlive } from '../os/pid-alive.js';
import { processStartTime } from '../os/process-start.js';
import { readNetProxyState, type NetProxyState } from './net-proxy-state.js';

export const NET_PROXY_SOCKET = 'net-proxy.sock';
export const NET_PROXY_LOG = 'net-proxy.log';
/** `$MORI_HOME/net-proxy/<session id>`: each sandboxed session's proxy dir (its socket, state and log). */
export const NET_PROXY_DIR = 'net-proxy';
export const sessionNetProxyDir = (moriHome: string, sessionId: string): string => path.join(moriHome, NET_PROXY_DIR, sessionId);
/** A node start, the CLI's load and a listen take well under a second; a loaded machine gets ten. */
const START_DEADLINE_MS = 10_000;
/** A proxy closes at once on SIGTERM; one that has not after this is killed. */
const STOP_GRACE_MS = 2_000;
const POLL_MS = 50;
/** sun_path's size on macOS (Linux allows 108): a longer socket path cannot be bound. */
const MAX_SOCKET_PATH = 103;

/** How the proxy is run: a Node binary on Mori's CLI entry (the daemon's own, by default). */
export interface ProxyLaunch {
  execPath: string;
  entry: string;
  env: NodeJS.ProcessEnv;
}

/** This process's Node and entry; under Electron its binary runs as Node. */
export function ownLaunch(): ProxyLaunch {
  const env = { ...process.env, ...(process.versions['electron'] !== undefined ? { ELECTRON_RUN_AS_NODE: '1' } : {}) };
  return { execPath: process.execPath, entry: process.argv[1] ?? '', env };
}

export interface NetProxyOptions {
  /** The proxy's own dir, outside the sandbox (its state and log). */
  dir: string;
  /** Where it listens; `<dir>/net-proxy.sock` by default. */
  socket?: string;
  allowedHosts: string[];
  launch?: ProxyLaunch;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function connects(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(socket);
    c.once('connect', () => (c.destroy(), resolve(true)));
    c.once('error', () => resolve(false));
  });
}

/** The proxy recorded in `dir` when its process is the one recorded and its socket answers; else null. */
export async function netProxyRunning(dir: string): Promise<NetProxyState | null> {
  const s = readNetProxyState(dir);
  if (s === null || !pidAlive(s.pid) || processStartTime(s.pid) !== s.startTime) return null;
  return (await connects(s.socket)) ? s : null;
}

/** Starts a proxy for `dir` (stopping one already there) and resolves once it answers on its socket. */
export async function startNetProxy(o: NetProxyOptions): Promise<Result<NetProxyState>> {
  const socket = o.socket ?? path.join(o.dir, NET_PROXY_SOCKET);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) return fail('failed', `the proxy's socket path ${socket} is longer than a unix socket allows (${MAX_SOCKET_PATH} bytes)`);
  await stopNetProxy(o.dir);
  mkdirSync(o.dir, { recursive: true, mode: 0o700 });
  const launch = o.launch ?? ownLaunch();
  const logFile = path.join(o.dir, NET_PROXY_LOG);
  const fd = openSync(logFile, 'a', 0o600);
  let exited: string | null = null;
  let pid: number | undefined;
  try {
    const args = [launch.entry, 'net-proxy', '--dir', o.dir, '--socket', socket, ...o.allowedHosts.flatMap((h) => ['--allow', h])];
    const child = spawn(launch.execPath, args, { cwd: o.dir, detached: true, stdio: ['ignore', 'ignore', fd], env: launch.env });
    child.once('exit', (code, signal) => (exited = signal ?? `exit ${code}`));
    child.once('error', (err) => (exited = err.message));
    child.unref();
    pid = child.pid;
  } finally {
    closeSync(fd);
  }
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    const s = await netProxyRunning(o.dir);
    if (s !== null && s.pid === pid) return ok(s);
    if (exited !== null) return fail('failed', `the session's network proxy exited before it listened (${exited}); see ${logFile}`);
    await sleep(POLL_MS);
  }
  return fail('failed', `the session's network proxy (pid ${pid ?? '?'}) did not listen on ${socket} within ${START_DEADLINE_MS / 1000} s; see ${logFile}`);
}

/** The running proxy when it serves the same socket and hosts; otherwise a new one. */
export async function ensureNetProxy(o: NetProxyOptions): Promise<Result<NetProxyState>> {
  const socket = o.socket ?? path.join(o.dir, NET_PROXY_SOCKET);
  const s = await netProxyRunning(o.dir);
  if (s !== null && s.socket === socket && s.allowedHosts.join('\n') === o.allowedHosts.join('\n')) return ok(s);
  return startNetProxy(o);
}

/** Stops the proxy recorded in `dir`, if it runs; resolves once it is gone. */
export async function stopNetProxy(dir: string): Promise<void> {
  const s = readNetProxyState(dir);
  if (s === null || !pidAlive(s.pid) || processStartTime(s.pid) !== s.startTime) return;
  process.kill(s.pid, 'SIGTERM');
  const deadline = Date.now() + STOP_GRACE_MS;
  while (pidAlive(s.pid)) {
    if (Date.now() > deadline) {
      process.kill(s.pid, 'SIGKILL');
      // Killed, it cannot remove its socket as its own exit does (a loaded machine can take longer
      // than the grace): removed here, and only a socket (the path is Mori's, in its own home).
      removeSocket(s.socket);
      break;
    }
    await sleep(POLL_MS);
  }
}

function removeSocket(socket: string): void {
  try {
    if (lstatSync(socket).isSocket()) unlinkSync(socket);
  } catch {
    // already gone
  }
}
