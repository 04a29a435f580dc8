// Every remote of remotes.json kept connected for the app (DESIGN.md §12, sessions on other hosts):
// one RemoteLink each, started and stopped as remotes are added and removed while the app runs (the
// file is re-read on a timer: a small read, compared with what it said last). Reports each change
// with the remote's name; a remote that hangs or fails only shows in its own status, never holding
// up the others or the local daemon. Runs in the Electron main process (plain Node).
import type { IpcMethod, IpcParams, IpcResult } from '../../common/ipc.js';
import { fail, type Result } from '../../common/result.js';
import { readRemotes, type Remote } from './remotes-store.js';
import { RemoteLink, type RemoteChange, type RemoteLinkOptions, type RemoteView } from './remote-link.js';

/**
 * How often remotes.json is read again: `mori remote add` in a terminal shows in the tray within
 * this; the read is one small file, and an unchanged one does nothing.
 */
export const REMOTES_REREAD_MS = 5_000;

export interface RemoteHubOptions extends RemoteLinkOptions {
  rereadMs?: number;
}

export type RemoteHubListener = (name: string, change: RemoteChange) => void;

export class RemoteHub {
  private readonly links = new Map<string, { link: RemoteLink; spec: string }>();
  private readonly listeners = new Set<RemoteHubListener>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private lastProblem: string | null = null;

  constructor(private readonly o: RemoteHubOptions) {}

  /** Reads remotes.json, connects to each remote, and keeps reading it. */
  start(): void {
    this.reread();
    this.timer = setInterval(() => this.reread(), this.o.rereadMs ?? REMOTES_REREAD_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const { link } of this.links.values()) link.stop();
    this.links.clear();
  }

  onChange(listener: RemoteHubListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Each remote as it is now, by name. */
  views(): RemoteView[] {
    return [...this.links.values()].map(({ link }) => link.view()).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Remote `name` as remotes.json says it (for a connection of its own), if the hub holds it. */
  remote(name: string): Remote | undefined {
    return this.links.get(name)?.link.remote;
  }

  /** A request to remote `name`'s daemon (RemoteLink.request); a remote not in remotes.json is named. */
  request<M extends IpcMethod>(name: string, method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>> {
    const entry = this.links.get(name);
    if (!entry) return Promise.resolve(fail('not-found', `no remote "${name}" (\`mori remote ls\` lists them)`));
    return entry.link.request(method, params);
  }

  /** Starts links for new remotes, stops removed ones, and restarts one whose entry changed. */
  reread(): void {
    const r = readRemotes(this.o.home);
    if (!r.ok) {
      // A corrupt file is named once (not every few seconds); the remotes already connected stay.
      if (r.message !== this.lastProblem) this.o.log?.(r.message);
      this.lastProblem = r.message;
      return;
    }
    this.lastProblem = null;
    const wanted = new Map(r.value.map((remote) => [remote.name, remote]));
    for (const [name, { link, spec }] of [...this.links]) {
      const now = wanted.get(name);
      if (now && JSON.stringify(now) === spec) continue;
      link.stop();
      this.links.delete(name);
      this.tell(name, { events: [], firstListing: false });
    }
    for (const remote of wanted.values()) if (!this.links.has(remote.name)) this.add(remote);
  }

  private add(remote: Remote): void {
    const link = new RemoteLink(remote, this.o, (change) => this.tell(remote.name, change));
    this.links.set(remote.name, { link, spec: JSON.stringify(remote) });
    link.start();
    this.tell(remote.name, { events: [], firstListing: false });
  }

  private tell(name: string, change: RemoteChange): void {
    for (const l of [...this.listeners]) l(name, change);
  }
}
