// The last output of a program that ended (DESIGN.md §6): node-pty destroys its pty's socket 200 ms
// after the program exits (DESTROY_SOCKET_TIMEOUT_MS in its unixTerminal.js) and drops whatever was
// not read by then — all of it when the pty was paused (a view lagging behind: flow control), the
// last buffer when the event loop was late. Here the socket's destroy first hands on what is left:
// the stream's own buffer, then the pty read until it is empty (EAGAIN: something else still holds
// it) or closed (EIO). Uses node-pty 1.1.0's private `_socket` and `_fd` (the version is pinned);
// where they are absent nothing is changed, and terminals-direct's "paused through its exit" test
// fails. Runs in the supervisor's process.
import { readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { IPty } from 'node-pty';

/** One read of what is left: a pty's kernel buffer is a few KB; larger reads just loop less. */
const DRAIN_READ_BYTES = 64 * 1024;

interface PtyInternals {
  _socket?: Readable;
  _fd?: number;
}

/** Makes the pty's socket hand on what is left in it and in the pty before it is destroyed. */
export function drainBeforeDestroy(pty: IPty): void {
  const { _socket: socket, _fd: fd } = pty as unknown as PtyInternals;
  if (socket === undefined || typeof socket.destroy !== 'function' || typeof fd !== 'number') return;
  const destroy = socket.destroy.bind(socket);
  socket.destroy = (error?: Error) => {
    if (!socket.destroyed) {
      // Buffered in the stream: read() hands it to the 'data' listeners, as a flowing stream would.
      while (socket.read() !== null);
      const buf = Buffer.allocUnsafe(DRAIN_READ_BYTES);
      for (;;) {
        let n = 0;
        try {
          n = readSync(fd, buf, 0, buf.length, null);
        } catch {
          break; // EAGAIN (nothing more now), EIO (the other side closed), EBADF (already closed)
        }
        if (n <= 0) break;
        socket.emit('data', Buffer.from(buf.subarray(0, n)));
      }
    }
    return destroy(error);
  };
}
