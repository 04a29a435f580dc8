// The preload (DESIGN.md §2, §11): exposes exactly one `MoriApi` (common/mori-api.ts) to the page
// as `window.moriApi`, over the IPC router's channels (common/electron-ipc.ts) — named methods,
// never ipcRenderer itself. It stays a thin forwarder: Electron's invoke already matches each reply to
// its request, and the main process's daemon client validates the results. Built as CommonJS (out/preload/index.cjs): a sandboxed preload is not
// an ES module. Runs in the window's isolated preload context.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC, type InvokeChannel, type InvokeChannels, type PushChannel, type PushChannels } from '../common/electron-ipc.js';
import type { DaemonEvent, IpcResult } from '../common/ipc.js';
import type { AttachedTerminal, ConnectionState, HostStatus, MoriApi, TerminalView } from '../common/mori-api.js';
import type { Result } from '../common/result.js';
import type { TerminalFrame } from '../common/terminal.js';

/** One invoke channel, typed as common/electron-ipc.ts says. Electron's invoke matches each reply to its request. */
const invoke = <C extends InvokeChannel>(channel: C, ...args: InvokeChannels[C]['args']): Promise<InvokeChannels[C]['reply']> =>
  ipcRenderer.invoke(channel, ...args) as Promise<InvokeChannels[C]['reply']>;

/** One push channel from the main process, typed as common/electron-ipc.ts says. */
function on<C extends PushChannel>(channel: C, listener: (...args: PushChannels[C]) => void): void {
  ipcRenderer.on(channel, (_e: IpcRendererEvent, ...args: unknown[]) => listener(...(args as PushChannels[C])));
}

const eventListeners = new Set<(e: DaemonEvent) => void>();
const connectionListeners = new Set<(state: ConnectionState, detail: string) => void>();
const hostListeners = new Set<(hosts: readonly HostStatus[]) => void>();
/** The remote hosts as last told (none until the main process says, or when there are none). */
let hosts: readonly HostStatus[] = [];
const views = new Map<number, TerminalView>();
/** Frames that arrive before `attach` has returned their id (the snapshot follows the reply at once). */
const early = new Map<number, (TerminalFrame | { kind: 'ended'; reason: string })[]>();
let subscribed = false;

function subscribe(): void {
  if (subscribed) return;
  subscribed = true;
  ipcRenderer.send(IPC.subscribe);
}

on(IPC.event, (event) => {
  for (const l of [...eventListeners]) l(event);
});
on(IPC.connection, (state, detail) => {
  for (const l of [...connectionListeners]) l(state, detail);
});
on(IPC.hosts, (told) => {
  hosts = told;
  for (const l of [...hostListeners]) l(told);
});
on(IPC.frame, (id, frame) => {
  const view = views.get(id);
  if (!view) return void early.set(id, [...(early.get(id) ?? []), frame]);
  if (frame.kind === 'snapshot') view.snapshot(frame.data, frame.size);
  else deliver(id, view, frame.data);
});

/** Output to its view; a view that does not acknowledge output itself has it acknowledged on arrival. */
function deliver(id: number, view: TerminalView, data: string): void {
  view.output(data);
  if (!view.acksOutput) ack(id, data.length);
}

function ack(id: number, chars: number): void {
  if (chars > 0) void invoke(IPC.attachAck, id, chars).then(undefined, () => undefined);
}
on(IPC.ended, (id, reason) => {
  const view = views.get(id);
  if (!view) return void early.set(id, [...(early.get(id) ?? []), { kind: 'ended', reason }]);
  views.delete(id);
  view.ended(reason);
});

const api: MoriApi = {
  call: (method, params) => invoke(IPC.call, method, params) as Promise<Result<IpcResult<typeof method>>>,
  onEvent(listener) {
    eventListeners.add(listener);
    subscribe();
    return () => eventListeners.delete(listener);
  },
  onConnection(listener) {
    connectionListeners.add(listener);
    subscribe();
    return () => connectionListeners.delete(listener);
  },
  onHosts(listener) {
    hostListeners.add(listener);
    subscribe();
    listener(hosts);
    return () => hostListeners.delete(listener);
  },
  async attach(session, size, view) {
    const r = await invoke(IPC.attach, session, size, view.holding !== false);
    if (!r.ok) return r;
    const { id, info } = r.value;
    views.set(id, view);
    for (const f of early.get(id) ?? []) {
      if (f.kind === 'snapshot') view.snapshot(f.data, f.size);
      else if (f.kind === 'output') deliver(id, view, f.data);
      else {
        views.delete(id);
        view.ended(f.reason);
      }
    }
    early.delete(id);
    const terminal: AttachedTerminal = {
      info,
      input: (data) => void invoke(IPC.attachInput, id, data).then(undefined, () => undefined),
      resize: (cols, rows) => void invoke(IPC.attachResize, id, { cols, rows }).then(undefined, () => undefined),
      // The page's acknowledgements are the ones the daemon's flow control counts (the router relays them).
      ack: (chars) => {
        if (views.has(id)) ack(id, chars);
      },
      hold: (holding) => {
        if (views.has(id)) void invoke(IPC.attachHold, id, holding).then(undefined, () => undefined);
      },
      detach: () => {
        views.delete(id);
        void invoke(IPC.attachDetach, id).then(undefined, () => undefined);
      },
    };
    return { ok: true, value: terminal };
  },
  openLink: (url) => invoke(IPC.openLink, url),
  openStateDir: (session) => invoke(IPC.openStateDir, session),
  close() {
    eventListeners.clear();
    connectionListeners.clear();
    hostListeners.clear();
  },
};

contextBridge.exposeInMainWorld('moriApi', api);
