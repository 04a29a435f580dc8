// The daemon's process model, client side (DESIGN.md §12): whether one answers on `$MORI_HOME/mori.sock`
// (liveness is something answering, never a pid file alone), starting one detached (`mori up --daemon`,
// and `mori start|stop|send|attach|ui` when none answers) under a spawn lock so two clients starting it
// at once start one, and stopping it (`mori down`). Runs in client processes.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, ok, type Result } from '../../common/result.js';
import { pidAlive } from '../os/pid-alive.js';
import { tryLock } from '../state/pid-lock.js';
import { ensureHome } from '../state/registry.js';
import { ControlClient, type DaemonHello } from './control-client.js';
import { DAEMON_ERR_LOG, ensureLogDir, logDir, rotateIfLarger } from '../daemon/daemon-log.js';

/** Set in the detached daemon's environment: `mori up` then logs to files, not to a terminal. */
export const DAEMON_CHILD_ENV = 'MORI_DAEMON_CHILD';
/** Held while a client starts the daemon; a second client waits for the first one's daemon instead. */
export const SPAWN_LOCK = 'daemon-spawn.lock';
/** How long a starting daemon has to answer: loading and re-attaching take a second or two; a loaded machine more. */
export const DAEMON_START_DEADLINE_MS = 30_000;
/** `mori down` waits this long for the process to be gone (DESIGN.md: within 5 s), with headroom for a loaded machine. */
export const DAEMON_STOP_DEADLINE_MS = 15_000;
/** Polling step while waiting for a daemon to answer or to go: short against both deadlines. */
const POLL_MS = 50;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The daemon's hello when one answers (of any protocol version), else null. */
export async function daemonAnswering(home: string): Promise<DaemonHello | null> {
  const c = await ControlClient.connect(home, { allowOtherVersion: true, client: `probe (pid ${process.pid})` });
  if (!c.ok) return null;
  c.value.close();
  return c.value.daemon;
}

/** The CLI's own entry (out/cli/main/cli/index.js, beside this folder), run by the detached daemon. */
const CLI_ENTRY = fileURLToPath(new URL('../cli/index.js', import.meta.url));

/**
 * How the daemon is run: by default this Node running the CLI's own entry; the Electron app runs its
 * own binary as Node (ELECTRON_RUN_AS_NODE=1 in `env`) on the CLI it ships.
 */
export interface DaemonLaunch {
  execPath: string;
  entry: string;
}

export interface Started {
  pid: number;
  /** False when another client's daemon answered first. */
  started: boolean;
  logs: string;
}

/**
 * Starts `mori up` detached and returns once it answers. When one already answers (or another client
 * is starting one), that one is returned with `started: false`.
 */
export async function startDaemon(
  home: string,
  refs: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
  launch: DaemonLaunch = { execPath: process.execPath, entry: CLI_ENTRY },
): Promise<Result<Started>> {
  ensureHome(home);
  const logs = ensureLogDir(home);
  const deadline = Date.now() + DAEMON_START_DEADLINE_MS;
  for (;;) {
    const running = await daemonAnswering(home);
    if (running) return ok({ pid: running.pid, started: false, logs });
    const lock = tryLock(path.join(home, SPAWN_LOCK), 'starting the daemon');
    if (lock.ok) {
      try {
        // Checked again under the lock: a client that held it may have just started one.
        const again = await daemonAnswering(home);
        if (again) return ok({ pid: again.pid, started: false, logs });
        return await spawnAndWait(home, refs, env, logs, deadline, launch);
      } finally {
        lock.release();
      }
    }
    if (Date.now() > deadline) return fail('failed', `another client is starting the Mori daemon (pid ${lock.holder?.pid ?? '?'}) and it has not answered in ${DAEMON_START_DEADLINE_MS / 1000} s; see ${logs}`);
    await sleep(POLL_MS);
  }
}

async function spawnAndWait(home: string, refs: readonly string[], env: NodeJS.ProcessEnv, logs: string, deadline: number, launch: DaemonLaunch): Promise<Result<Started>> {
  const errLog = path.join(logs, DAEMON_ERR_LOG);
  rotateIfLarger(errLog, 0);
  const fd = openSync(errLog, 'a', 0o600);
  let exited: string | null = null;
  try {
    const child = spawn(launch.execPath, [launch.entry, 'up', ...refs], {
      cwd: home,
      detached: true,
      stdio: ['ignore', 'ignore', fd],
      env: { ...env, MORI_HOME: home, [DAEMON_CHILD_ENV]: '1' },
    });
    child.once('exit', (code, signal) => (exited = signal ?? `exit ${code}`));
    child.once('error', (err) => (exited = err.message));
    child.unref();
    while (Date.now() < deadline) {
      const hello = await daemonAnswering(home);
      if (hello) return ok({ pid: hello.pid, started: true, logs });
      if (exited !== null) {
        const tail = readTail(errLog);
        return fail('failed', `the Mori daemon exited before it answered (${exited})${tail ? `:\n${tail}` : ''}\nlogs: ${logs}`);
      }
      await sleep(POLL_MS);
    }
    return fail('failed', `the Mori daemon (pid ${child.pid ?? '?'}) did not answer within ${DAEMON_START_DEADLINE_MS / 1000} s; see ${logs}`);
  } finally {
    closeSync(fd);
  }
}

function readTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-10).join('\n');
  } catch {
    return '';
  }
}

/** Connects, starting the daemon first when none answers; `onStarted` is told when it had to. */
export async function connectOrStart(home: string, onStarted: (s: Started) => void, env: NodeJS.ProcessEnv = process.env): Promise<Result<ControlClient>> {
  const first = await ControlClient.connect(home);
  if (first.ok) return first;
  if ((await daemonAnswering(home)) !== null) return first; // it answers, but not to us (version): say why
  const started = await startDaemon(home, [], env);
  if (!started.ok) return started;
  if (started.value.started) onStarted(started.value);
  return ControlClient.connect(home);
}

export interface Stopped {
  pid: number;
  /** Whether anything was running. */
  wasRunning: boolean;
}

/** Stops the daemon and waits until its process is gone. */
export async function stopDaemon(home: string, stopAgents: boolean): Promise<Result<Stopped>> {
  const c = await ControlClient.connect(home, { allowOtherVersion: true, client: `mori down (pid ${process.pid})` });
  if (!c.ok) return ok({ pid: 0, wasRunning: false });
  const pid = c.value.daemon.pid;
  const r = await c.value.request('daemon.stop', { stopAgents });
  c.value.close();
  // The daemon closing the connection before it answered is the stop under way; a daemon of another
  // version may answer in another shape, and stops all the same.
  if (!r.ok && r.code !== 'disconnected' && r.code !== 'protocol') return r;
  const deadline = Date.now() + DAEMON_STOP_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (!pidAlive(pid) && (await daemonAnswering(home)) === null) return ok({ pid, wasRunning: true });
    await sleep(POLL_MS);
  }
  return fail('failed', `the Mori supervisor (pid ${pid}) did not stop within ${DAEMON_STOP_DEADLINE_MS / 1000} s; see ${logDir(home)}`);
}
