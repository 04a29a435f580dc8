// `mori bridge` (DESIGN.md §12, sessions on other hosts): run by ssh on the host whose sessions are
// wanted, it relays its stdin and stdout to this host's control socket, starting the daemon first when
// none answers (daemon-process.ts). Lines are relayed whole, in order. It carries no approval: an
// approving request (approval-gate.ts) is answered `forbidden` by the bridge itself and never reaches
// the daemon, since the daemon sees only the bridge, whose ancestry ends at sshd, and cannot tell the
// person from an agent on either host (one may run `ssh thishost mori bridge`). Runs as its own process.
import net from 'node:net';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { IPC_MAX_LINE_CHARS, type IpcMethod, type IpcServerMessage } from '../../common/ipc.js';
import { fail, ok, type Result } from '../../common/result.js';
import { approvingAction } from '../daemon/approval-gate.js';
import { controlSocketPath } from '../daemon/control-socket-path.js';
import { startDaemon } from '../daemon-client/daemon-process.js';

/** What a bridged approval is told: where approvals on this host are given instead. */
export function bridgeRefusal(action: string): string {
  return `${action} is not done through \`mori bridge\`: approvals on ${os.hostname()} come from the person there, in its Mori window or in a terminal on it outside Mori's sessions`;
}

/** The bridge's own answer to a line, when it answers it instead of the daemon; null to relay it. */
export function answerHere(line: string): IpcServerMessage | null {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return null; // the daemon answers "not JSON"
  }
  if (typeof json !== 'object' || json === null) return null;
  const { id, method, params } = json as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof method !== 'string') return null;
  const action = approvingAction(method as IpcMethod, params);
  if (action === null) return null;
  return { kind: 'reply', id: typeof id === 'number' ? id : 0, ok: false, code: 'forbidden', message: bridgeRefusal(action) };
}

/** Splits a stream into whole lines; fails past `max` characters without a newline. */
function lineSplitter(onLine: (line: string) => void, onTooLong: () => void, max: number): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      onLine(line);
    }
    if (buffer.length > max) onTooLong();
  };
}

/**
 * Relays `input` to the daemon of `home` and its answers to `output` until either side ends. Resolves
 * when the relay is over; fails when no daemon could be started or reached.
 */
export async function runBridge(home: string, input: Readable, output: Writable, say: (text: string) => void): Promise<Result<void>> {
  const started = await startDaemon(home);
  if (!started.ok) return started;
  if (started.value.started) say(`mori bridge: no Mori supervisor was running on ${os.hostname()}; started one (pid ${started.value.pid}, logs in ${started.value.logs})`);
  const socket = net.connect(controlSocketPath(home));
  const connected = await new Promise<Result<void>>((resolve) => {
    socket.once('connect', () => resolve(ok(undefined)));
    socket.once('error', (err) => resolve(fail('failed', `${controlSocketPath(home)}: ${err.message}`)));
  });
  if (!connected.ok) return connected;
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: Result<void>): void => {
      if (done) return;
      done = true;
      socket.destroy();
      input.destroy();
      resolve(r);
    };
    // Our answers and the daemon's go out as whole lines, never one inside another.
    const write = (line: string): void => {
      if (!output.write(line + '\n')) socket.pause();
    };
    socket.setEncoding('utf8');
    socket.on('data', lineSplitter(write, () => finish(fail('failed', 'the daemon sent a line too long to relay')), Number.MAX_SAFE_INTEGER));
    socket.on('close', () => finish(ok(undefined)));
    socket.on('error', () => undefined);
    // Output that the client stops reading is bounded by the daemon (it drops the connection); the
    // bridge follows the client's pace rather than buffering: the socket pauses while stdout is full,
    // and stdin while the socket is.
    output.on('drain', () => socket.resume());
    const relay = (line: string): void => {
      const answer = answerHere(line);
      if (answer) return write(JSON.stringify(answer));
      if (!socket.write(line + '\n')) input.pause();
    };
    socket.on('drain', () => input.resume());
    input.setEncoding('utf8');
    input.on('data', lineSplitter(relay, () => finish(fail('usage', `a request longer than ${IPC_MAX_LINE_CHARS} characters`)), IPC_MAX_LINE_CHARS));
    input.on('end', () => socket.end());
    input.on('error', () => finish(ok(undefined)));
  });
}
