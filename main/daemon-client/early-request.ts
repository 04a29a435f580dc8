// A connection to the running supervisor on which `hello` and one request are written as soon as it
// is open, before the command loads the protocol's schemas (DESIGN.md §10, §12): the daemon works on
// the answer while this process loads what checks it. What arrives meanwhile is kept, and handed with
// the socket to control-client.ts (ControlClient.adopt), which awaits both replies as its own and
// checks them as always. Loads only node:net and the frame format. Runs in the CLI process.
import net from 'node:net';
import { helloParams, requestFrame } from '../../common/protocol-frames.js';

/** An open connection with `hello` (id 1) and one request (id 2) on the wire. */
export interface EarlyConnection {
  readonly socket: net.Socket;
  /** Hands over what arrived so far, then everything that arrives after (text, as the socket reads it). */
  handOver(onChunk: (chunk: string) => void): void;
}

/** Connects to `file` and writes `hello` and the request; null when nothing answers there (the error's code). */
export function requestEarly(file: string, client: string, method: string, params: unknown): Promise<EarlyConnection | { error: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(file);
    socket.setEncoding('utf8');
    const received: string[] = [];
    let forward: ((chunk: string) => void) | null = null;
    socket.on('data', (chunk: string) => (forward ? forward(chunk) : received.push(chunk)));
    socket.once('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    socket.once('connect', () => {
      socket.write(`${requestFrame(1, 'hello', helloParams(client))}\n${requestFrame(2, method, params)}\n`);
      resolve({
        socket,
        handOver: (onChunk) => {
          forward = onChunk;
          for (const chunk of received.splice(0)) onChunk(chunk);
        },
      });
    });
  });
}
