// A client of another host's daemon (DESIGN.md §12, sessions on other hosts): the system's `ssh` runs
// the remote's command (`mori bridge`), whose stdin and stdout carry the control protocol as
// newline-delimited JSON, spoken through the one client core (common/protocol-client.ts). Mori opens no
// port and holds no credential: ssh authenticates as the person's ssh does (keys, agent, config), never
// by prompting (BatchMode). A login that does not finish within login-bound.ts's bound is said as such
// (never as the supervisor's fault); a remote of another protocol version is named, with what to run
// there; a remote that does not answer in time is given up on and its ssh killed. Runs in the CLI
// process and the Electron main process.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { IpcMethod, IpcParams, IpcResult, IpcServerMessage } from '../../common/ipc.js';
import { PROTOCOL_VERSION, REPLACE_DAEMON_HINT } from '../../common/ipc.js';
import { ProtocolClient, type DaemonHello, type StreamMessage, type Transport } from '../../common/protocol-client.js';
import { fail, ok, type Result } from '../../common/result.js';
import { moriHome } from '../state/mori-home.js';
import type { Remote } from './remotes-store.js';
import { loginTimeoutSeconds } from './login-bound.js';

/** Kept of ssh's stderr for the message when it fails: its last lines say why; 8 KiB holds many. */
const STDERR_KEPT_CHARS = 8 * 1024;
/** ssh's own exit status when it failed (connect, auth, options), as opposed to the remote command's. */
const SSH_FAILED = 255;
/** The shell's status for a command it could not find: the remote's `mori` is not on its PATH. */
const NOT_FOUND = 127;

/**
 * How long ssh keeps a remote's connection open after its last use: a login costs a handshake (seconds
 * on a slow link), so `mori ls` every few minutes reuses one; an idle one ends on its own.
 */
const CONTROL_PERSIST_S = 300;

/** Where ssh keeps its shared connections: private to this user, in the Mori home (0700). */
export function controlDir(home: string): string {
  return path.join(home, 'ssh');
}

/** The words given to `ssh`: the remote's own options first (ssh keeps the first value of an option), then Mori's defaults. */
export function sshArgs(remote: Remote, home: string, loginSeconds = loginTimeoutSeconds()): string[] {
  return [
    ...remote.sshOptions,
    // No terminal on the remote: the channel carries JSON lines, byte for byte.
    '-T',
    // One connection per remote, shared by every command and kept a while: later ones skip the handshake.
    '-o', 'ControlMaster=auto',
    // %C: a hash of the local host, remote host, port and user (40 characters: socket paths stay short).
    // Quoted: ssh splits an option's value at spaces, and macOS's home is ".../Application Support/Mori".
    '-o', `ControlPath="${path.join(controlDir(home), '%C')}"`,
    '-o', `ControlPersist=${CONTROL_PERSIST_S}`,
    // Never a password or host-key prompt: a command without a terminal would wait on it forever.
    '-o', 'BatchMode=yes',
    // A host that accepts TCP and never speaks ssh (a wrong port, a firewall's tarpit) fails its login
    // within the bound `mori ls` waits, instead of holding a command until its request's timeout.
    '-o', `ConnectTimeout=${loginSeconds}`,
    // A connection that died silently (sleep, a network change) is noticed within 45 s.
    '-o', 'ServerAliveInterval=15',
    '-o', 'ServerAliveCountMax=3',
    '--',
    remote.destination,
    remote.remoteCommand,
  ];
}

/** ssh's words when its ConnectTimeout passed: the TCP connect, or the banner or key exchange after it. */
export const LOGIN_TIMED_OUT = /timed out during banner exchange|Connection timed out|timed out during key exchange|port \d+ timed out/i;

/** A login that did not finish: the host, what ssh said, and what to look at; nothing about Mori's supervisor, which was never reached. */
export function loginUnfinished(r: Remote, said: string): string {
  const saying = said ? ` (ssh: ${said})` : '';
  return `${r.name} (${r.destination}): the ssh login did not finish within ${loginTimeoutSeconds()} s${saying}; check that ${r.destination} answers ssh on that port (\`ssh ${r.destination}\`)`;
}

/**
 * ssh's last words on stderr, its last three whole lines joined: a line still being written when ssh's
 * exit was seen (stderr is not waited for, see below) is left out rather than shown cut ("… / Conn"),
 * unless it is all there is.
 */
export function saidLines(stderr: string): string {
  const whole = stderr.lastIndexOf('\n') >= 0 ? stderr.slice(0, stderr.lastIndexOf('\n')) : stderr;
  return whole.split('\n').map((l) => l.trim()).filter(Boolean).slice(-3).join(' / ');
}

/** ssh's stdin and stdout as the core's transport: one message per line; the close says why, from ssh's stderr. */
class SshTransport implements Transport {
  private onFrameListener: (frame: string) => void = () => undefined;
  private onCloseListener: (why: string) => void = () => undefined;
  stderr = '';
  closedWhy: string | null = null;
  /** Whether the far side said anything on stdout: the login finished and the remote command runs. */
  heard = false;

  constructor(
    private readonly child: ChildProcess,
    private readonly remote: Remote,
  ) {
    let buffer = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      this.heard = true;
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        this.onFrameListener(line);
      }
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-STDERR_KEPT_CHARS)));
    child.stdin?.on('error', () => undefined);
    child.once('error', (err) => this.closed(`${remote.name}: cannot run ssh (${err.message})`));
    // Not 'close': the shared connection ssh leaves behind (ControlPersist) keeps stderr open. Done when
    // ssh exited and its stdout ended; what stderr said by then is the reason, the rest is not waited for.
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let outEnded = false;
    const done = (): void => {
      if (!exit || !outEnded) return;
      this.closed(this.why(exit.code, exit.signal));
      child.stderr?.destroy();
    };
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      done();
    });
    child.stdout?.once('close', () => {
      outEnded = true;
      done();
    });
  }

  send(frame: string): void {
    if (this.closedWhy === null && this.child.stdin?.writable) this.child.stdin.write(frame.endsWith('\n') ? frame : frame + '\n');
  }

  onFrame(listener: (frame: string) => void): void {
    this.onFrameListener = listener;
  }

  onClose(listener: (why: string) => void): void {
    this.onCloseListener = listener;
  }

  private closed(why: string): void {
    if (this.closedWhy !== null) return;
    this.closedWhy = why;
    this.onCloseListener(why);
  }

  /** Why the connection ended, in the person's words: ssh's own failure, a missing command, or the bridge's last words. */
  private why(code: number | null, signal: NodeJS.Signals | null): string {
    const r = this.remote;
    const said = saidLines(this.stderr);
    const tail = said ? `: ${said}` : '';
    if (code === SSH_FAILED && LOGIN_TIMED_OUT.test(said)) return loginUnfinished(r, said);
    if (code === SSH_FAILED) return `${r.name} (${r.destination}) cannot be reached through ssh${tail}`;
    if (code === NOT_FOUND) return `${r.name}: \`${r.remoteCommand}\` was not found there${tail}; install Mori there, or give the command with \`mori remote add ${r.name} ${r.destination} --remote-command '...'\``;
    return `${r.name}: the connection ended (${signal ?? `exit ${code}`})${tail}`;
  }

  /** Ends the connection: ssh's stdin closed (the bridge then ends), and ssh itself stopped. */
  kill(): void {
    this.child.stdin?.end();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
  }
}

export interface RemoteConnectOptions {
  /** Given up on after this long (ssh killed); the default covers a remote that must start its daemon. */
  timeoutMs?: number;
  /** Keep a connection to a remote of another protocol version (to say so, with its pid). */
  allowOtherVersion?: boolean;
  /** The Mori home whose ssh connections are shared (default: $MORI_HOME). */
  home?: string;
}

/** A remote's daemon start takes up to 30 s (daemon-process.ts), plus the ssh handshake on a slow link. */
export const REMOTE_CONNECT_TIMEOUT_MS = 45_000;

/**
 * A hello that got no answer while ssh still ran: the remote command (its bridge) said nothing, or its
 * supervisor did not answer. What to do is on that host: the local supervisor has nothing to do with it.
 */
function unanswered(remote: Remote, heard: boolean): string {
  const what = heard ? 'its Mori supervisor did not answer hello' : `ssh ran, and \`${remote.remoteCommand}\` there said nothing`;
  return `${remote.name} (${remote.destination}): ${what}; look on ${remote.name} (\`mori status\` there, \`${REPLACE_DAEMON_HINT}\` there restarts its supervisor)`;
}

/** What to run on a remote whose daemon speaks `theirs`. */
export function otherVersionMessage(remote: Remote, hello: DaemonHello): string {
  const update = hello.protocol < PROTOCOL_VERSION ? `update Mori on ${remote.name}` : 'update Mori here';
  return `${remote.name}: its Mori supervisor (pid ${hello.pid}) speaks protocol ${hello.protocol}, this mori speaks ${PROTOCOL_VERSION}: ${update} to the same version, then run \`${REPLACE_DAEMON_HINT}\` on ${remote.name} (its tmux agents keep running)`;
}

export class RemoteClient {
  private constructor(
    readonly remote: Remote,
    private readonly transport: SshTransport,
    private readonly core: ProtocolClient,
  ) {}

  /** Runs ssh and says hello; fails with ssh's reason, the other version, or the time it took. */
  static async connect(remote: Remote, opts: RemoteConnectOptions = {}): Promise<Result<RemoteClient>> {
    const home = opts.home ?? moriHome();
    mkdirSync(controlDir(home), { recursive: true, mode: 0o700 });
    const child = spawn('ssh', sshArgs(remote, home), { stdio: ['pipe', 'pipe', 'pipe'] });
    const transport = new SshTransport(child, remote);
    const core = new ProtocolClient(transport);
    const client = new RemoteClient(remote, transport, core);
    const timeoutMs = opts.timeoutMs ?? REMOTE_CONNECT_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<Result<DaemonHello>>((resolve) => {
      timer = setTimeout(() => resolve(fail('disconnected', `${remote.name} (${remote.destination}) did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    const hello = await Promise.race([
      core.hello({ client: `mori cli over ssh (pid ${process.pid})`, allowOtherVersion: true, daemonName: `the Mori supervisor on ${remote.name}`, selfName: 'this mori' }),
      late,
    ]);
    clearTimeout(timer);
    if (!hello.ok) {
      client.close();
      // ssh ended first: its reason, not the core's advice for a local daemon.
      if (transport.closedWhy !== null) return fail('disconnected', transport.closedWhy);
      return fail('disconnected', unanswered(remote, transport.heard));
    }
    if (hello.value.protocol !== PROTOCOL_VERSION && !opts.allowOtherVersion) {
      client.close();
      return fail('protocol', otherVersionMessage(remote, hello.value));
    }
    return ok(client);
  }

  get daemon(): DaemonHello {
    return this.core.daemon;
  }

  request<M extends IpcMethod>(method: M, params: IpcParams<M>): Promise<Result<IpcResult<M>>> {
    return this.core.request(method, params);
  }

  notify<M extends IpcMethod>(method: M, params: IpcParams<M>): void {
    this.core.notify(method, params);
  }

  onStream(listener: (m: StreamMessage) => void): void {
    this.core.onStream(listener);
  }

  /** Sends one request line as given (the web host's relay of a page); the reply arrives as a raw message. */
  sendRaw(line: string): void {
    this.core.sendRaw(line);
  }

  /** Every message not matched to a request of this client's (a relayed page's replies, stream messages). */
  onRaw(listener: (m: IpcServerMessage) => void): void {
    this.core.onRaw(listener);
  }

  /** The connection ended, and why (ssh's words when ssh ended it). */
  onClose(listener: (why: string) => void): void {
    this.core.onClose(listener);
  }

  /** What the remote printed on stderr so far (the bridge says when it started a daemon). */
  get stderr(): string {
    return this.transport.stderr;
  }

  close(): void {
    this.transport.kill();
  }
}
