// Which processes hold the other end of a control-socket connection (DESIGN.md §11): Node has no
// SO_PEERCRED, so on Linux the accepted socket's inode is read from /proc/self/fd, and `ss -xpn`
// (iproute2, the kernel's sock_diag) names the peer socket and the processes holding it. Asked only
// when an approving request arrives, never per connection. Other platforms are not covered yet (macOS
// would need LOCAL_PEERPID through a native addon): the answer then says so. Runs in the supervisor.
import { execFile } from 'node:child_process';
import { readlink } from 'node:fs/promises';
import type net from 'node:net';

export type PeerLookup =
  /** Every process holding the peer's socket (a forked client shares it: all of them are named). */
  | { known: true; pids: number[] }
  /** `unsupported`: no way to ask on this platform; `failed`: the way exists and did not answer. */
  | { known: false; why: 'unsupported' | 'failed'; reason: string };

/** `ss` answers in tens of milliseconds; two seconds covers a loaded machine with many sockets. */
const SS_TIMEOUT_MS = 2_000;
/** A desktop has a few thousand unix sockets, ~150 bytes a line: 16 MiB is far beyond any of them. */
const SS_MAX_BUFFER = 16 * 1024 * 1024;

/** The file descriptor behind an accepted socket (libuv's handle; not a public API, hence the checks). */
function socketFd(socket: net.Socket): number | null {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : null;
}

type SsOutput = { out: string } | { error: string };

function spawnSs(): Promise<SsOutput> {
  return new Promise((resolve) => {
    execFile('ss', ['-xpn'], { timeout: SS_TIMEOUT_MS, maxBuffer: SS_MAX_BUFFER, encoding: 'utf8' }, (err, stdout) => {
      if (err) resolve({ error: (err as NodeJS.ErrnoException).code === 'ENOENT' ? '`ss` (iproute2) is not installed' : `\`ss -xpn\` failed: ${err.message}` });
      else resolve({ out: stdout });
    });
  });
}

let running: Promise<SsOutput> | null = null;
let queued: Promise<SsOutput> | null = null;

/**
 * One `ss` at a time, shared: a request waits for a run that started after it arrived (so its
 * connection is listed), and every request waiting for that run reads the same output. A flood of
 * approving requests thus costs at most one running and one queued `ss`, never one each.
 */
function runSs(): Promise<SsOutput> {
  if (!running) {
    const run = spawnSs().finally(() => {
      if (running === run) running = null;
    });
    running = run;
    return run;
  }
  if (!queued) {
    const next = running.then(() => {
      queued = null;
      const run = spawnSs().finally(() => {
        if (running === run) running = null;
      });
      running = run;
      return run;
    });
    queued = next;
  }
  return queued;
}

/**
 * From `ss -xpn` output, the pids holding the socket whose peer is `inode`. A line reads
 * `u_str ESTAB 0 0 <local addr> <local inode> <peer addr> <peer inode> users:(("name",pid=N,fd=M),...)`.
 * Our own line gives the peer's inode; the peer's line gives its holders. A process name that breaks
 * the line (it may hold anything) leaves no pid to read: unknown, never a wrong "outside".
 */
export function parsePeerPids(ssOutput: string, inode: number): number[] | null {
  const rows = ssOutput.split('\n').map((line) => {
    const at = line.indexOf(' users:(');
    return at < 0 ? { head: line.trimEnd(), users: '' } : { head: line.slice(0, at).trimEnd(), users: line.slice(at) };
  });
  // Anchored at the end of the addresses: `<local inode> <peer addr> <peer inode>`.
  const ours = new RegExp(`(?:^|\\s)${inode}\\s+\\S+\\s+(\\d+)$`);
  const peer = rows.map((r) => ours.exec(r.head)?.[1]).find((m) => m !== undefined);
  if (peer === undefined) return null;
  const theirs = new RegExp(`(?:^|\\s)${peer}\\s+\\S+\\s+${inode}$`);
  const row = rows.find((r) => theirs.test(r.head));
  if (!row) return null;
  const pids = [...row.users.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
  return pids.length > 0 ? [...new Set(pids)] : null;
}

/** The processes at the other end of `socket`, or why they cannot be named. */
export async function peerProcesses(socket: net.Socket): Promise<PeerLookup> {
  if (process.platform !== 'linux') return { known: false, why: 'unsupported', reason: `telling who is on the other end of the control socket is not supported on ${process.platform}` };
  const fd = socketFd(socket);
  if (fd === null) return { known: false, why: 'failed', reason: 'the connection has no file descriptor' };
  let link: string;
  try {
    link = await readlink(`/proc/self/fd/${fd}`);
  } catch (err) {
    return { known: false, why: 'failed', reason: `cannot read /proc/self/fd/${fd}: ${(err as Error).message}` };
  }
  const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
  if (!inode) return { known: false, why: 'failed', reason: `/proc/self/fd/${fd} is ${link}, not a socket` };
  const ss = await runSs();
  if ('error' in ss) return { known: false, why: 'failed', reason: ss.error };
  const pids = parsePeerPids(ss.out, Number(inode));
  if (!pids) return { known: false, why: 'failed', reason: 'the process on the other end could not be found (it may have exited)' };
  return { known: true, pids };
}
