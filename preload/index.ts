// The preload (DESIGN.md §2, §11): exposes exactly one `MoriApi` (common/mori-api.ts) to the page
// as `window.moriApi`, over the IPC router's channels (common/electron-ipc.ts) — named methods,
// never ipcRenderer itself. Built as CommonJS (out/preload/index.cjs): a sandboxed preload is not
// an ES module. Runs in the window's isolated preload context.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC } from '../common/electron-ipc.js';
import type { DaemonEvent, SessionInfo } from '../common/ipc.js';
import type { AttachedTerminal, ConnectionState, MoriApi, TerminalView } from '../common/mori-api.js';
import type { Result } from '../common/result.js';

type Frame = { kind: 'snapshot'; data: string; size: { cols: number; rows: number } } | { kind: 'output'; data: string };

const eventListeners = new Set<(e: DaemonEvent) => void>();
const connectionListeners = new Set<(state: ConnectionState, detail: string) => void>();
const views = new Map<number, TerminalView>();
/** Frames that arrive before `attach` has returned their id (the snapshot follows the reply at once). */
const early = new Map<number, (Frame | { kind: 'ended'; reason: string })[]>();
let subscribed = false;

function subscribe(): void {
  if (subscribed) return;
  subscribed = true;
  ipcRenderer.send(IPC.subscribe);
}

ipcRenderer.on(IPC.event, (_e: IpcRendererEvent, event: DaemonEvent) => {
  for (const l of [...eventListeners]) l(event);
});
ipcRenderer.on(IPC.connection, (_e: IpcRendererEvent, state: ConnectionState, detail: string) => {
  for (const l of [...connectionListeners]) l(state, detail);
});
ipcRenderer.on(IPC.frame, (_e: IpcRendererEvent, id: number, frame: Frame) => {
  const view = views.get(id);
  if (!view) return void early.set(id, [...(early.get(id) ?? []), frame]);
  if (frame.kind === 'snapshot') view.snapshot(frame.data, frame.size);
  else view.output(frame.data);
});
ipcRenderer.on(IPC.ended, (_e: IpcRendererEvent, id: number, reason: string) => {
  const view = views.get(id);
  if (!view) return void early.set(id, [...(early.get(id) ?? []), { kind: 'ended', reason }]);
  views.delete(id);
  view.ended(reason);
});

const api: MoriApi = {
  call: (method, params) => ipcRenderer.invoke(IPC.call, method, params),
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
  async attach(session, size, view) {
    const r = (await ipcRenderer.invoke(IPC.attach, session, size)) as Result<{ id: number; info: SessionInfo }>;
    if (!r.ok) return r;
    const { id, info } = r.value;
    views.set(id, view);
    for (const f of early.get(id) ?? []) {
      if (f.kind === 'snapshot') view.snapshot(f.data, f.size);
      else if (f.kind === 'output') view.output(f.data);
      else {
        views.delete(id);
        view.ended(f.reason);
      }
    }
    early.delete(id);
    const terminal: AttachedTerminal = {
      info,
      input: (data) => void ipcRenderer.invoke(IPC.attachInput, id, data).then(undefined, () => undefined),
      resize: (cols, rows) => void ipcRenderer.invoke(IPC.attachResize, id, { cols, rows }).then(undefined, () => undefined),
      // The main process acknowledges each frame as it relays it to this window (ipc-router.ts), so
      // the agent is never held by the window; nothing to send from here.
      ack: () => undefined,
      detach: () => {
        views.delete(id);
        void ipcRenderer.invoke(IPC.attachDetach, id).then(undefined, () => undefined);
      },
    };
    return { ok: true, value: terminal };
  },
  close() {
    eventListeners.clear();
    connectionListeners.clear();
  },
};

contextBridge.exposeInMainWorld('moriApi', api);
