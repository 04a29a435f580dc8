// One tmux control-mode client (`tmux -C`) as a child process: sends commands and matches their
// replies in order, decodes `%output` per pane into text, reports `%exit` and subscriptions. Its
// output is always read: a client that stops reading gets no command replies either (flow control
// holds the program instead, see pane-hold.ts). Runs in the supervisor's process.
import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { endsWithParent } from '../../os/parent-death.js';
import { ControlParser, type ControlEvent } from './tmux-protocol.js';
import { tmuxClientEnv, type TmuxServer } from './tmux-server.js';

export interface ControlReply {
  ok: boolean;
  /** The reply's lines, as UTF-8 text. */
  lines: string[];
}

export interface ControlClientHandlers {
  output(pane: string, data: string): void;
  exit(reason: string | null): void;
  subscription?(name: string, value: string): void;
  pause?(pane: string): void;
  continue?(pane: string): void;
}

/** A control client attaches in milliseconds; this only bounds a wedged server. */
const CONNECT_TIMEOUT_MS = 10_000;

const utf8 = (latin1: string): string => Buffer.from(latin1, 'latin1').toString('utf8');

export class TmuxControlClient {
  private readonly child: ChildProcess;
  private readonly parser: ControlParser;
  private readonly waiting: { resolve: (r: ControlReply) => void; onReply?: ((r: ControlReply) => void) | undefined }[] = [];
  private readonly decoders = new Map<string, StringDecoder>();
  private ended = false;
  private markReady!: () => void;
  /**
   * Resolves once the client is attached to its session (`%session-changed`), or has ended.
   * Commands sent before that may run before the attach does, without a session to act on.
   */
  readonly ready: Promise<void> = new Promise((resolve) => (this.markReady = resolve));

  constructor(file: string, args: string[], private readonly handlers: ControlClientHandlers) {
    // A control client left by a killed supervisor would hold its session's output for no one.
    const [program, argv] = endsWithParent(file, args);
    this.child = spawn(program, argv, { env: tmuxClientEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    this.parser = new ControlParser((e) => this.onEvent(e));
    this.child.stdout?.setEncoding('latin1');
    this.child.stdout?.on('data', (chunk: string) => this.parser.push(chunk));
    this.child.stderr?.on('data', () => undefined);
    this.child.stdin?.on('error', () => undefined);
    this.child.on('error', () => this.end('tmux could not be started'));
    this.child.on('close', () => this.end(null));
  }

  get alive(): boolean {
    return !this.ended;
  }

  /**
   * Sends one command line; resolves with its reply (a failed reply if the client went away).
   * `onReply` runs synchronously when the reply is parsed, before any output that follows it.
   */
  command(line: string, onReply?: (reply: ControlReply) => void): Promise<ControlReply> {
    if (this.ended || !this.child.stdin?.writable) return Promise.resolve({ ok: false, lines: ['tmux control client is gone'] });
    return new Promise((resolve) => {
      this.waiting.push({ resolve, onReply });
      this.child.stdin?.write(`${line}\n`);
    });
  }

  /** Detaches (an empty line ends a control client); the session keeps running. */
  close(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('close', () => resolve());
      this.child.stdin?.end('\n');
      // A client that does not leave on its own within a second is killed: it holds nothing.
      setTimeout(() => this.child.kill('SIGKILL'), 1000).unref();
    });
  }

  private onEvent(e: ControlEvent): void {
    switch (e.kind) {
      case 'output': {
        let decoder = this.decoders.get(e.pane);
        if (!decoder) this.decoders.set(e.pane, (decoder = new StringDecoder('utf8')));
        const text = decoder.write(Buffer.from(e.bytes, 'latin1'));
        if (text.length > 0) this.handlers.output(e.pane, text);
        return;
      }
      case 'reply':
        if (e.fromUs) {
          const w = this.waiting.shift();
          const reply = { ok: e.ok, lines: e.lines.map(utf8) };
          w?.onReply?.(reply);
          w?.resolve(reply);
        }
        return;
      case 'exit':
        this.end(e.reason);
        return;
      case 'subscription':
        this.handlers.subscription?.(e.name, e.value);
        return;
      case 'pause':
        this.handlers.pause?.(e.pane);
        return;
      case 'continue':
        this.handlers.continue?.(e.pane);
        return;
      case 'notification':
        if (e.name === '%session-changed') this.markReady();
        return;
      default:
        return;
    }
  }

  private end(reason: string | null): void {
    if (this.ended) return;
    this.ended = true;
    this.markReady();
    for (const w of this.waiting.splice(0)) w.resolve({ ok: false, lines: ['tmux control client is gone'] });
    this.handlers.exit(reason);
  }
}

/**
 * Attaches a control client to `session` as one of the server's exclusive operations, and waits
 * until it is attached (bounded: a wedged server must not hold every other terminal's operations
 * for ever). The client may have ended meanwhile: see `alive`.
 */
export function attachControlClient(server: TmuxServer, session: string, handlers: ControlClientHandlers): Promise<TmuxControlClient> {
  return server.exclusive(async () => {
    const client = new TmuxControlClient(server.tmuxPath, [...server.baseArgs(), '-C', 'attach-session', '-t', `=${session}`], handlers);
    await Promise.race([client.ready, new Promise((resolve) => setTimeout(resolve, CONNECT_TIMEOUT_MS).unref())]);
    return client;
  });
}
