// `mori attach S` (DESIGN.md §9, §12): connects this terminal to the session (raw mode, resize, Ctrl-]
// detaches) and needs a TTY. For `host:session` a dropped ssh connection (sleep, a network change, a
// killed ssh) is not the end: it says so on stderr, reconnects with backoff and attaches again (the
// screen reset and repainted from the daemon's snapshot), and lists what happened on that host
// meanwhile — the events after the last one it saw (`subscribe` with `since`, common/event-cursor.ts),
// or that its daemon was restarted. Ctrl-C while it waits ends it. Runs in the CLI process.
import type { Command } from 'commander';
import { EventCursor, type SubscribeOutcome } from '../../../common/event-cursor.js';
import type { DaemonEvent } from '../../../common/ipc.js';
import { fail, type Failure } from '../../../common/result.js';
import { RemoteClient } from '../../remote/remote-client.js';
import type { Remote } from '../../remote/remotes-store.js';
import { describeEvent } from '../event-words.js';
import { reportFailure } from '../output.js';
import type { DaemonLink } from '../remote-target.js';
import { connectTarget, STARTING_WAIT_MS } from './control.js';

/** Ctrl-]: telnet's and docker's detach key; no agent uses it. */
export const DETACH_KEY = '\x1d';
/** Ctrl-C as raw mode reads it: the agent's while attached, the end of waiting while reconnecting. */
const CTRL_C = '\x03';
/** The first wait before reconnecting: an ssh login takes about a second, and a dropped link is rarely back sooner. */
export const RETRY_FIRST_MS = 1_000;
/**
 * The longest wait between tries (each doubles the last): every try is a login on the remote, written
 * in its auth log, so a host away for long is tried twice a minute, not hammered; Ctrl-C ends the wait.
 */
export const RETRY_MAX_MS = 30_000;
/** Missed events listed on a reconnect: a few lines above the repainted screen; the rest are counted. */
const MISSED_SHOWN = 8;

/** How one attachment ended: for good (detached, the session ended), or its connection was lost. */
type Ending = { kind: 'end'; reason: string } | { kind: 'lost'; reason: string };

const size = (): { cols: number; rows: number } => ({ cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 });
/** A line of our own in raw mode: carriage returns, and on a line of its own. */
const say = (text: string): void => void process.stderr.write(`\r\n${text}\r\n`);
const seconds = (ms: number): string => `${Math.max(1, Math.round(ms / 1000))} s`;

/** What happened on the host while the connection was down, from the reply to the re-subscription. */
function meanwhileLines(host: string, awayMs: number, outcome: SubscribeOutcome | null, missed: DaemonEvent[]): string[] {
  const back = `[mori: ${host}: back after ${seconds(awayMs)}`;
  if (outcome === null) return [`${back}; what happened meanwhile could not be read]`];
  if (outcome.kind === 'resync') {
    return [outcome.why === 'gap' ? `${back}; more happened meanwhile than ${host} keeps: \`mori ls\` shows where things are]` : `${back}; its supervisor was restarted meanwhile: \`mori ls\` shows where things are]`];
  }
  if (missed.length === 0) return [`${back}; nothing happened there meanwhile]`];
  const lines = [`${back}; meanwhile there:`, ...missed.slice(0, MISSED_SHOWN).map((e) => `  ${describeEvent(e)}`)];
  if (missed.length > MISSED_SHOWN) lines.push(`  … and ${missed.length - MISSED_SHOWN} more`);
  return [...lines.slice(0, -1), lines[lines.length - 1] + ']'];
}

export function registerAttach(program: Command): void {
  program
    .command('attach <session>')
    .description('connect this terminal to the session (Ctrl-] detaches)')
    .action(async (spec: string) => {
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        return reportFailure(fail('usage', 'attach needs a terminal: run it in an interactive terminal (stdin and stdout must be a TTY)'), {});
      }
      const connected = await connectTarget(spec);
      if (!connected.ok) return reportFailure(connected, {});
      const reason = await new Attachment(connected.value.session, connected.value.remote).run(connected.value.link, connected.value.startedNow);
      if (typeof reason !== 'string') return reportFailure(reason, {});
      process.stdout.write(`\r\n[mori: ${reason}]\r\n`);
    });
}

/** One `mori attach`: its connections one after another, the terminal in raw mode throughout. */
class Attachment {
  /** The link keystrokes go to; null while (re)connecting. */
  private live: DaemonLink | null = null;
  private readonly cursor = new EventCursor();
  private stopWith: (reason: string) => void = () => undefined;
  /** Resolves when the person ends it (Ctrl-], or Ctrl-C while reconnecting). */
  private readonly stopped = new Promise<string>((resolve) => (this.stopWith = resolve));
  private stopReason: string | null = null;

  constructor(
    private readonly session: string,
    private readonly remote: Remote | null,
  ) {}

  /** Attaches, and re-attaches after each lost connection to a remote; the reason it ended, or why it never began. */
  async run(first: DaemonLink, startedNow: () => boolean): Promise<string | Failure> {
    const began = await this.attach(first, true, startedNow);
    if ('code' in began) {
      first.close();
      return began;
    }
    process.stdin.setRawMode(true);
    process.stdin.resume();
    const onInput = (data: Buffer): void => this.input(data.toString('utf8'));
    const onResize = (): void => this.live?.notify('resize', size());
    process.stdin.on('data', onInput);
    process.stdout.on('resize', onResize);
    try {
      let link = first;
      let ending = await this.follow(began.ended);
      while (ending.kind === 'lost' && this.remote && this.stopReason === null) {
        link.close();
        const lostAt = Date.now();
        say(`[mori: ${this.remote.name}: the connection was lost (${ending.reason}); reconnecting — Ctrl-C ends]`);
        const next = await this.reconnect(this.remote);
        if (next === null) break;
        link = next;
        const again = await this.attach(link, false, () => false, lostAt);
        if ('code' in again) {
          ending = { kind: 'end', reason: again.message };
          break;
        }
        ending = await this.follow(again.ended);
      }
      link.close();
      return this.stopReason ?? ending.reason;
    } finally {
      process.stdin.off('data', onInput);
      process.stdout.off('resize', onResize);
      process.stdin.setRawMode(false);
      process.stdin.pause();
    }
  }

  private input(text: string): void {
    const at = text.indexOf(DETACH_KEY);
    if (at >= 0) {
      if (at > 0) this.live?.notify('input', { data: text.slice(0, at) });
      return this.stop('detached');
    }
    if (this.live) return this.live.notify('input', { data: text });
    // Nothing to type into while reconnecting: Ctrl-C gives up, anything else is dropped.
    if (text.includes(CTRL_C)) this.stop(`stopped reconnecting to ${this.remote?.name ?? 'the supervisor'}`);
  }

  private stop(reason: string): void {
    if (this.stopReason !== null) return;
    this.stopReason = reason;
    this.stopWith(reason);
  }

  /**
   * Takes a connection's stream, subscribes (a remote's: after the last event seen, listing what was
   * missed when the connection had been lost at `lostAt`) and attaches; the first attach waits for a
   * session that a just-started daemon is still bringing up. Its value: how the attachment will end.
   */
  private async attach(link: DaemonLink, first: boolean, startedNow: () => boolean, lostAt = 0): Promise<{ ended: Promise<Ending> } | Failure> {
    const missed: DaemonEvent[] = [];
    let replaying = true;
    let end: (e: Ending) => void = () => undefined;
    const ended = new Promise<Ending>((resolve) => (end = resolve));
    link.onStream((m) => {
      if (m.kind === 'event') {
        if (this.cursor.accept(m.seq) && replaying) missed.push(m.event);
      } else if (m.kind === 'frame') {
        // The first screen clears the scrollback too; a repaint leaves the lines printed above it.
        if (m.frame.kind === 'snapshot') process.stdout.write((first ? '\x1b[H\x1b[2J\x1b[3J' : '\x1b[H\x1b[2J') + m.frame.data);
        else {
          process.stdout.write(m.frame.data);
          link.notify('ack', { chars: m.frame.data.length });
        }
      } else if (m.kind === 'detached') end({ kind: 'end', reason: m.reason });
      // The daemon drops the connection (it fell behind, the daemon stops): the socket closes next.
      else end({ kind: 'lost', reason: m.reason });
    });
    link.onClose((why) => end(this.remote ? { kind: 'lost', reason: why } : { kind: 'end', reason: 'the supervisor went away' }));
    if (this.remote) {
      const asked = this.cursor.subscribeParams();
      const sub = await link.request('subscribe', asked);
      replaying = false;
      const outcome = sub.ok ? this.cursor.subscribed(sub.value, asked) : null;
      if (!first) process.stderr.write(meanwhileLines(this.remote.name, Date.now() - lostAt, outcome, missed).join('\r\n') + '\r\n');
    }
    let r = await link.request('attach', { session: this.session, ...size() });
    for (const deadline = Date.now() + STARTING_WAIT_MS; startedNow() && !r.ok && r.code === 'not-running' && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      r = await link.request('attach', { session: this.session, ...size() });
    }
    if (!r.ok) return r;
    this.live = link;
    return { ended };
  }

  /** Until the attachment ends: the person, the daemon (detached, closing) or the connection ends it. */
  private async follow(ended: Promise<Ending>): Promise<Ending> {
    const ending = await Promise.race([ended, this.stopped.then((reason): Ending => ({ kind: 'end', reason }))]);
    this.live = null;
    return ending;
  }

  /** A new connection to the remote, trying with backoff until one answers or the person gives up (null). */
  private async reconnect(remote: Remote): Promise<DaemonLink | null> {
    let wait = RETRY_FIRST_MS;
    for (let attempt = 1; this.stopReason === null; attempt++) {
      process.stderr.write(`\r\x1b[K[mori: ${remote.name}: try ${attempt} in ${seconds(wait)}]`);
      const waited = await Promise.race([new Promise<boolean>((resolve) => setTimeout(() => resolve(true), wait)), this.stopped.then(() => false)]);
      if (!waited) return null;
      process.stderr.write(`\r\x1b[K[mori: ${remote.name}: connecting (try ${attempt})]`);
      const attemptDone = RemoteClient.connect(remote);
      const c = await Promise.race([attemptDone, this.stopped.then(() => null)]);
      if (c === null) {
        // Given up while ssh was still connecting: that connection is closed once it answers.
        attemptDone.then((late) => (late.ok ? late.value.close() : undefined), () => undefined);
        return null;
      }
      if (c.ok) {
        process.stderr.write('\r\x1b[K');
        return c.value;
      }
      process.stderr.write(`\r\x1b[K[mori: ${remote.name}: ${c.message}]\r\n`);
      wait = Math.min(wait * 2, RETRY_MAX_MS);
    }
    return null;
  }
}
