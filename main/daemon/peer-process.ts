// Which process is on the other end of a control-socket connection (DESIGN.md §11), as the kernel
// says and nothing else: SO_PEERCRED on Linux, LOCAL_PEERPID on macOS (main/os/libc.ts), read on the
// accepted socket's descriptor when the connection is accepted, with that process's start time. The
// kernel records the process that called connect(); when that process has exited by the time an
// approving request arrives (its descriptor may live on in a child, and its pid may already be
// another process's), the peer is unknown and the gate refuses. No text another process can shape (a
// socket's path, a process name) is ever read. Runs in the supervisor.
import type net from 'node:net';
import { socketPeerPid } from '../os/libc.js';
import { processStartTimeAsync as startOf } from '../os/process-start.js';

export type PeerLookup =
  /** The process that connected, still the same process (its start time unchanged). */
  | { known: true; pid: number }
  /** Why it cannot be named: the kernel cannot be asked here, or the process is gone. */
  | { known: false; reason: string };

/** The peer of one accepted connection: read at accept, confirmed when asked. */
export interface ConnectionPeer {
  lookup(): Promise<PeerLookup>;
}

/** The file descriptor behind an accepted socket (libuv's handle; not a public API, hence the checks). */
function socketFd(socket: net.Socket): number | null {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : null;
}

/**
 * Asks the kernel for the peer of `socket`, just accepted. Cheap (one getsockopt, one /proc read on
 * Linux; `ps` elsewhere, without holding the daemon): done for every connection, so that the start
 * time is the connecting process's, read before that process could exit and its pid be reused.
 */
export function peerAtAccept(socket: net.Socket): ConnectionPeer {
  const fd = socketFd(socket);
  const asked = fd === null ? ({ ok: false, reason: 'the connection has no file descriptor' } as const) : socketPeerPid(fd);
  if (!asked.ok) {
    const lookup: PeerLookup = { known: false, reason: asked.reason };
    return { lookup: () => Promise.resolve(lookup) };
  }
  const { pid } = asked;
  const started = startOf(pid);
  return {
    lookup: async () => {
      const then = await started;
      if (then === null) return { known: false, reason: `the process that connected (pid ${pid}) had exited before its connection was accepted` };
      if ((await startOf(pid)) !== then) return { known: false, reason: `the process that connected (pid ${pid}) has exited; its connection is used by another` };
      return { known: true, pid };
    },
  };
}
