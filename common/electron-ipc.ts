// The Electron IPC channels between the preload and the main process's IPC router (DESIGN.md §11):
// one prefixed list, so neither side spells a channel by hand. Payloads are the control API's
// (common/ipc.ts), validated by the router with its zod schemas. Pure TypeScript.
export const IPC = {
  /** invoke(method, params) → Result: one control-API request relayed to the daemon. */
  call: 'mori:call',
  /** send(): this window wants daemon events and connection changes from now on. */
  subscribe: 'mori:subscribe',
  /** main → window: one daemon event. */
  event: 'mori:event',
  /** main → window: (state, detail) of the daemon connection. */
  connection: 'mori:connection',
  /** invoke(session, cols, rows) → Result<{ id, info }>: attaches a terminal on its own daemon connection. */
  attach: 'mori:attach',
  /** invoke(id, data) / invoke(id, cols, rows) / invoke(id): the attachment's input, resize, detach. */
  attachInput: 'mori:attach-input',
  attachResize: 'mori:attach-resize',
  attachDetach: 'mori:attach-detach',
  /** main → window: (id, frame) a snapshot or output; (id, reason) the attachment ended. */
  frame: 'mori:frame',
  ended: 'mori:ended',
} as const;

/** Control-API methods a window may not call: connection plumbing the router does for it, and stopping the daemon (the tray's Quit). */
export const WINDOW_DENIED_METHODS: readonly string[] = ['hello', 'attach', 'input', 'resize', 'ack', 'detach', 'subscribe', 'daemon.stop'];

/** The hash that opens the window on one session: `#session=<id>` (a notification's click, the tray's Open). */
export const sessionHash = (id: string): string => `session=${encodeURIComponent(id)}`;
