// The one IPC router between the window and the daemon (DESIGN.md §11): every handler first checks
// that the message comes from the app's own page in a top-level frame (a foreign or embedded frame
// is refused), then validates the payload with common/'s zod schemas, and only then relays it to the
// daemon — or, for a session named `host:…`, to that remote's daemon over the app's standing ssh
// connection (main/remote/window-remotes.ts), with every remote's sessions in the list and their
// events among the daemon's. Terminal attachments each get their own daemon connection (an ssh login
// of its own for a remote one); their frames go back to the
// window that asked, which acknowledges them itself once taken in (so a window that falls behind
// slows its agent instead of queueing without bound), and only that window may type into, resize,
// acknowledge or detach them. A session's state folder opens in the file manager by its id: the
// folder the daemon lists for it, never a path from the page.
// When that window's page reloads, navigates, crashes or is destroyed, its attachments end (their
// daemon connections close): a page that is gone holds nothing. Electron main process.
import type { IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import { z } from 'zod';
import { IPC, WINDOW_DENIED_METHODS, type InvokeChannel, type InvokeChannels, type PushChannel, type PushChannels } from '../../common/electron-ipc.js';
import { IPC_METHODS, parseParams, type IpcMethod } from '../../common/ipc.js';
import { TERMINAL_MAX_COLS, TERMINAL_MAX_ROWS } from '../../common/terminal.js';
import { fail, ok, type Result } from '../../common/result.js';
import { prefixedSession } from '../../common/hosts-api.js';
import { ControlClient } from '../daemon-client/control-client.js';
import type { DaemonConnection } from '../daemon-client/daemon-connection.js';
import type { WindowRemotes } from '../remote/window-remotes.js';

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
  on(channel: string, listener: (event: IpcMainEvent, ...args: unknown[]) => void): unknown;
}

export interface RouterOptions {
  ipcMain: IpcMainLike;
  connection: Pick<DaemonConnection, 'request' | 'onEvent' | 'onState' | 'state'>;
  home: string;
  /** Whether a URL is the app's own page (its file or the dev server), hash and query aside. */
  isAppUrl: (url: string) => boolean;
  log: (line: string) => void;
  /** Opens a link the page asks for (external-links.ts: http and https only, refusals logged). */
  openLink: (url: unknown, from: string) => Result<unknown>;
  /** The remote hosts' sessions; absent: this host's only. */
  remotes?: WindowRemotes;
  /**
   * Shows a folder in the file manager, selected in its parent (Electron's shell.showItemInFolder):
   * never opened, so a folder macOS takes for an app or package (`x.app`) is not launched.
   */
  showInFolder: (dir: string) => void;
}

/** What an attachment talks to: its own connection to this host's daemon or to a remote's. */
type AttachClient = Pick<ControlClient, 'request' | 'onStream' | 'onClose' | 'close'>;

type SenderEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

/** The check that comes before anything else: the app's own page, in its top frame. */
export function senderAllowed(event: SenderEvent, isAppUrl: (url: string) => boolean): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent) return false;
  return isAppUrl(frame.url);
}

const Size = z.object({ cols: z.number().int().min(1).max(TERMINAL_MAX_COLS), rows: z.number().int().min(1).max(TERMINAL_MAX_ROWS) });
/** session, size, and whether the view starts shown (older pages leave it out: shown). */
const AttachArgs = z.union([z.tuple([z.string().min(1).max(4096), Size]), z.tuple([z.string().min(1).max(4096), Size, z.boolean()])]);
const AttachId = z.number().int().nonnegative();
const SessionId = z.string().min(1).max(4096);
const refused = (why: string): Result<never> => fail('usage', why);

/** One message to a window on a push channel, typed as common/electron-ipc.ts says. */
function push<C extends PushChannel>(wc: Pick<WebContents, 'send'>, channel: C, ...args: PushChannels[C]): void {
  wc.send(channel, ...args);
}

export class IpcRouter {
  private readonly subscribers = new Set<WebContents>();
  private readonly attachments = new Map<number, { client: AttachClient; owner: WebContents }>();
  private nextAttach = 1;
  /** Per window: how many times its page went away; an attach begun before the latest one is dropped. */
  private readonly pageGenerations = new WeakMap<WebContents, number>();

  constructor(private readonly o: RouterOptions) {
    o.connection.onEvent((e) => this.broadcast(IPC.event, e));
    o.connection.onState((state, detail) => this.broadcast(IPC.connection, state, detail));
    o.remotes?.onChange((change) => {
      for (const e of change.events) this.broadcast(IPC.event, e);
      this.broadcast(IPC.hosts, change.hosts);
      // A remote that came, went or was first listed: the window lists again, as on its own connection's opening.
      if (change.relist && o.connection.state === 'open') this.broadcast(IPC.connection, 'open', '');
    });
    this.handle(IPC.call, (_e, method, params) => this.call(method, params));
    this.handle(IPC.attach, (e, ...args) => this.attach(e.sender, args));
    this.handle(IPC.attachInput, (e, id, data) => this.toAttachment(e.sender, id, 'input', { data }));
    this.handle(IPC.attachResize, (e, id, size) => this.toAttachment(e.sender, id, 'resize', size));
    this.handle(IPC.attachDetach, (e, id) => this.detach(e.sender, id));
    this.handle(IPC.attachAck, (e, id, chars) => this.toAttachment(e.sender, id, 'ack', { chars }));
    this.handle(IPC.attachHold, (e, id, holding) => this.toAttachment(e.sender, id, 'hold', { holding }));
    this.handle(IPC.openLink, async (_e, url) => o.openLink(url, 'the window'));
    this.handle(IPC.openStateDir, (_e, session) => this.openStateDir(session));
    o.ipcMain.on(IPC.subscribe, (e) => {
      if (!senderAllowed(e, o.isAppUrl)) return o.log(`refused ${IPC.subscribe} from ${e.senderFrame?.url ?? 'an unknown frame'}`);
      this.subscribers.add(e.sender);
      push(e.sender, IPC.connection, o.connection.state, '');
      if (o.remotes) push(e.sender, IPC.hosts, o.remotes.hosts());
    });
  }

  dispose(): void {
    for (const ch of [IPC.call, IPC.attach, IPC.attachInput, IPC.attachResize, IPC.attachDetach, IPC.attachAck, IPC.attachHold, IPC.openLink, IPC.openStateDir]) this.o.ipcMain.removeHandler(ch);
    for (const a of this.attachments.values()) a.client.close();
    this.attachments.clear();
  }

  /** One invoke channel: its arguments arrive unchecked (validated by `fn`); its answer is the channel's. */
  private handle<C extends InvokeChannel>(channel: C, fn: (e: IpcMainInvokeEvent, ...args: unknown[]) => Promise<InvokeChannels[C]['reply']>): void {
    this.o.ipcMain.handle(channel, async (e, ...args) => {
      if (!senderAllowed(e, this.o.isAppUrl)) {
        this.o.log(`refused ${channel} from ${e.senderFrame?.url ?? 'an unknown frame'}`);
        return refused('refused: this page is not Mori\'s window');
      }
      return fn(e, ...args);
    });
  }

  private async call(method: unknown, params: unknown): Promise<Result<unknown>> {
    if (typeof method !== 'string' || !(IPC_METHODS as string[]).includes(method)) return refused(`unknown method ${String(method)}`);
    if (WINDOW_DENIED_METHODS.includes(method)) return refused(`${method} is not available to the window`);
    const parsed = parseParams(method as IpcMethod, params);
    if (!parsed.ok) return refused(parsed.message);
    const remotes = this.o.remotes;
    if (method === 'list' && remotes) {
      const mine = await this.o.connection.request('list', {});
      return mine.ok ? ok([...mine.value, ...remotes.list()]) : mine;
    }
    const to = remotes?.route((parsed.value as { session?: unknown }).session);
    if (remotes && to) return remotes.call(to.host, to.session, method as IpcMethod, parsed.value as never);
    return this.o.connection.request(method as IpcMethod, parsed.value as never);
  }

  /** A connection of the attachment's own: to the remote the session names, else to this host's daemon. */
  private async attachClient(session: string): Promise<Result<{ client: AttachClient; session: string; host: string | null }>> {
    const to = this.o.remotes?.route(session);
    if (to && this.o.remotes) {
      const c = await this.o.remotes.connect(to.host);
      return c.ok ? ok({ client: c.value, session: to.session, host: to.host }) : c;
    }
    const c = await ControlClient.connect(this.o.home, { client: 'Mori window terminal' });
    return c.ok ? ok({ client: c.value, session, host: null }) : c;
  }

  /**
   * A session's state folder in the file manager: the folder the daemon lists for that session id,
   * never a path the page (or a file under the project) names.
   */
  private async openStateDir(session: unknown): Promise<Result<unknown>> {
    const id = SessionId.safeParse(session);
    if (!id.success) return refused('open state folder: a session id is expected');
    const sessions = await this.o.connection.request('list', {});
    if (!sessions.ok) return sessions;
    const info = sessions.value.find((s) => s.id === id.data);
    if (!info) return fail('not-found', `no session ${id.data}`);
    this.o.showInFolder(info.stateDir);
    return ok({});
  }

  private async attach(owner: WebContents, args: unknown[]): Promise<InvokeChannels[typeof IPC.attach]['reply']> {
    const parsed = AttachArgs.safeParse(args);
    if (!parsed.success) return refused(`attach: ${parsed.error.issues[0]?.message ?? 'invalid arguments'}`);
    const [named, size, holding = true] = parsed.data;
    const generation = this.watch(owner);
    const pageGone = (): boolean => owner.isDestroyed() || this.pageGenerations.get(owner) !== generation;
    const c = await this.attachClient(named);
    if (!c.ok) return c;
    const { client, session, host } = c.value;
    if (pageGone()) {
      client.close();
      return fail('failed', 'the page that asked for this terminal is gone');
    }
    const id = this.nextAttach++;
    client.onStream((m) => {
      if (m.kind === 'frame') {
        if (!owner.isDestroyed()) push(owner, IPC.frame, id, m.frame);
      } else if (m.kind === 'detached' || m.kind === 'closing') this.end(id, m.reason);
    });
    client.onClose(() => this.end(id, host === null ? 'the connection to the Mori daemon closed' : `the connection to ${host} closed`));
    this.attachments.set(id, { client, owner });
    const r = await client.request('attach', { session, cols: size.cols, rows: size.rows, ...(holding ? {} : { holding: false }) });
    if (!r.ok) {
      this.attachments.delete(id);
      client.close();
      return r;
    }
    if (!this.attachments.has(id)) return fail('failed', 'the page that asked for this terminal is gone');
    return ok({ id, info: host === null ? r.value : prefixedSession(host, r.value) });
  }

  /** Follows a window's page (once per window): its attachments end when the page goes. Its generation now. */
  private watch(owner: WebContents): number {
    const known = this.pageGenerations.get(owner);
    if (known !== undefined) return known;
    this.pageGenerations.set(owner, 0);
    const gone = (why: string): void => {
      this.pageGenerations.set(owner, (this.pageGenerations.get(owner) ?? 0) + 1);
      for (const [id, a] of [...this.attachments]) if (a.owner === owner) this.end(id, why);
    };
    owner.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) gone('the page reloaded');
    });
    owner.on('render-process-gone', () => gone('the page crashed'));
    owner.once('destroyed', () => {
      gone('the window closed');
      this.subscribers.delete(owner);
    });
    return 0;
  }

  private async toAttachment(sender: WebContents, id: unknown, method: 'input' | 'resize' | 'ack' | 'hold', params: unknown): Promise<Result<unknown>> {
    const key = AttachId.safeParse(id);
    if (!key.success) return refused('no such terminal');
    const a = this.attachments.get(key.data);
    if (!a || a.owner !== sender) return refused('no such terminal');
    const parsed = parseParams(method, params);
    if (!parsed.ok) return refused(parsed.message);
    return a.client.request(method, parsed.value as never);
  }

  private async detach(sender: WebContents, id: unknown): Promise<Result<unknown>> {
    const key = AttachId.safeParse(id);
    if (key.success && this.attachments.get(key.data)?.owner === sender) this.end(key.data, 'detached');
    return ok({});
  }

  private end(id: number, reason: string): void {
    const a = this.attachments.get(id);
    if (!a) return;
    this.attachments.delete(id);
    a.client.close();
    if (!a.owner.isDestroyed()) push(a.owner, IPC.ended, id, reason);
  }

  private broadcast<C extends PushChannel>(channel: C, ...args: PushChannels[C]): void {
    for (const wc of [...this.subscribers]) {
      if (wc.isDestroyed()) this.subscribers.delete(wc);
      else push(wc, channel, ...args);
    }
  }
}

