// The Electron IPC channels between the preload and the main process's IPC router (DESIGN.md §11):
// one prefixed list, so neither side spells a channel by hand. Payloads are the control API's
// (common/ipc.ts), validated by the router with its zod schemas; what each channel carries is typed
// below (InvokeChannels, PushChannels), so the preload and the router agree. Pure TypeScript.
import type { DaemonEvent, IpcMethod, LiveSession } from './ipc.js';
import type { ConnectionState, HostStatus } from './mori-api.js';
import type { Result } from './result.js';
import type { TerminalFrame, TerminalSize } from './terminal.js';

export const IPC = {
  /** invoke(method, params) → Result: one control-API request relayed to the daemon. */
  call: 'mori:call',
  /** send(): this window wants daemon events and connection changes from now on. */
  subscribe: 'mori:subscribe',
  /** main → window: one daemon event. */
  event: 'mori:event',
  /** main → window: (state, detail) of the daemon connection. */
  connection: 'mori:connection',
  /** main → window: each remote host and how it is connected (told on subscribing, then on each change). */
  hosts: 'mori:hosts',
  /** invoke(session, cols, rows) → Result<{ id, info }>: attaches a terminal on its own daemon connection. */
  attach: 'mori:attach',
  /** invoke(id, data) / invoke(id, size) / invoke(id): the attachment's input, resize, detach. */
  attachInput: 'mori:attach-input',
  attachResize: 'mori:attach-resize',
  attachDetach: 'mori:attach-detach',
  /** invoke(id, chars): the page took in (parsed) this much of the attachment's output; the daemon's flow control counts these. */
  attachAck: 'mori:attach-ack',
  /** invoke(id, holding): the attachment's view was shown (holds its agent back) or hidden (does not). */
  attachHold: 'mori:attach-hold',
  /** invoke(url) → Result: a link the person clicked, to open in the default browser (http and https only). */
  openLink: 'mori:open-link',
  /** invoke(sessionId) → Result: opens that session's state folder (the daemon's path for it) in the file manager. */
  openStateDir: 'mori:open-state-dir',
  /** main → window: (id, frame) a snapshot or output; (id, reason) the attachment ended. */
  frame: 'mori:frame',
  ended: 'mori:ended',
} as const;

/** window → main, invoke: the arguments each channel takes and what it answers (the router validates the arguments anyway). */
export interface InvokeChannels {
  [IPC.call]: { args: [method: IpcMethod, params: unknown]; reply: Result<unknown> };
  [IPC.attach]: { args: [session: string, size: TerminalSize, holding: boolean]; reply: Result<{ id: number; info: LiveSession }> };
  [IPC.attachInput]: { args: [id: number, data: string]; reply: Result<unknown> };
  [IPC.attachResize]: { args: [id: number, size: TerminalSize]; reply: Result<unknown> };
  [IPC.attachDetach]: { args: [id: number]; reply: Result<unknown> };
  [IPC.attachAck]: { args: [id: number, chars: number]; reply: Result<unknown> };
  [IPC.attachHold]: { args: [id: number, holding: boolean]; reply: Result<unknown> };
  [IPC.openLink]: { args: [url: string]; reply: Result<unknown> };
  [IPC.openStateDir]: { args: [session: string]; reply: Result<unknown> };
}
export type InvokeChannel = keyof InvokeChannels;

/** main → window: what each channel carries. */
export interface PushChannels {
  [IPC.event]: [event: DaemonEvent];
  [IPC.connection]: [state: ConnectionState, detail: string];
  [IPC.hosts]: [hosts: HostStatus[]];
  [IPC.frame]: [id: number, frame: TerminalFrame];
  [IPC.ended]: [id: number, reason: string];
}
export type PushChannel = keyof PushChannels;

/** Control-API methods a window may not call: connection plumbing the router does for it, and stopping the daemon (the tray's Quit). */
export const WINDOW_DENIED_METHODS: readonly string[] = ['hello', 'attach', 'input', 'resize', 'ack', 'hold', 'detach', 'subscribe', 'daemon.stop'];

/** The hash that opens the window on one session: `#session=<id>` (a notification's click, the tray's Open). */
export const sessionHash = (id: string): string => `session=${encodeURIComponent(id)}`;
