// `mori start S | stop S | resume-now S | dont-resume S | send S TEXT | attach S` (DESIGN.md §9, §12): act on the running supervisor
// through its control socket, starting the daemon first when none answers (and saying so); S as
// `host:session` acts on a remote's daemon through ssh (its bridge starts it there). `attach`
// connects this terminal to the session (raw mode, resize, Ctrl-] detaches) and needs a TTY. Runs in
// the CLI process.
import type { Command } from 'commander';
import { SessionInfo } from '../../../common/ipc.js';
import { fail, type Result } from '../../../common/result.js';
import { lifecycleWords } from '../../../common/session-view.js';
import { resolveSession } from '../../state/resolve-session.js';
import { readSessionFile } from '../../state/session-file.js';
import { connectOrStart, type Started } from '../../daemon-client/daemon-process.js';
import { moriHome } from '../../state/mori-home.js';
import { RemoteClient } from '../../remote/remote-client.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { remoteTarget, type DaemonLink } from '../remote-target.js';

/** Ctrl-]: telnet's and docker's detach key; no agent uses it. */
export const DETACH_KEY = '\x1d';

/** The session id when S resolves here (names are resolved by the current directory), else S as typed. */
export function sessionRef(spec: string): string {
  const dir = resolveSession(spec);
  if (!dir.ok) return spec;
  const file = readSessionFile(dir.value);
  return file.ok ? file.value.id : spec;
}

/** How long a request waits for a session the just-started daemon is still bringing up. */
const STARTING_WAIT_MS = 20_000;

function sayStarted(s: Started): void {
  process.stderr.write(`mori: no Mori supervisor is running; started a daemon (pid ${s.pid}, logs in ${s.logs})\n`);
}

/** What the bridge prints when it started the remote's daemon (remote/bridge.ts). */
const BRIDGE_STARTED = /^mori bridge: no Mori supervisor was running/m;

/** A connection to the daemon S belongs to, the session's reference there, and whether that daemon was started just now. */
interface Target {
  link: DaemonLink;
  session: string;
  startedNow: () => boolean;
}

async function connectTarget(spec: string): Promise<Result<Target>> {
  const remote = remoteTarget(spec);
  if (!remote.ok) return remote;
  if (remote.value) {
    const { remote: r, session } = remote.value;
    const c = await RemoteClient.connect(r);
    if (!c.ok) return c;
    return { ok: true, value: { link: c.value, session, startedNow: () => BRIDGE_STARTED.test(c.value.stderr) } };
  }
  let startedNow = false;
  const client = await connectOrStart(moriHome(), (s) => {
    startedNow = true;
    sayStarted(s);
  });
  if (!client.ok) return client;
  return { ok: true, value: { link: client.value, session: sessionRef(spec), startedNow: () => startedNow } };
}

/** Runs `fn` on S's daemon; after starting a daemon, retries while the session is still coming up. */
async function withClient<T>(spec: string, fn: (c: DaemonLink, session: string) => Promise<Result<T>>): Promise<Result<T>> {
  const target = await connectTarget(spec);
  if (!target.ok) return target;
  const { link, session, startedNow } = target.value;
  try {
    const deadline = Date.now() + STARTING_WAIT_MS;
    for (;;) {
      const r = await fn(link, session);
      // A session the daemon is bringing up answers `not-running` until it runs.
      if (r.ok || !startedNow() || r.code !== 'not-running' || Date.now() > deadline) return r;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    link.close();
  }
}

function infoText(value: unknown): string {
  const info = SessionInfo.safeParse(value);
  if (!info.success) return '';
  const i = info.data;
  return `${i.name}: ${i.usageLimit ? lifecycleWords(i) : i.state}${i.pid !== null ? ` (pid ${i.pid})` : ''}`;
}

export function registerControl(program: Command): void {
  for (const action of ['start', 'stop'] as const) {
    program
      .command(`${action} <session>`)
      .description(action === 'start' ? 'start (or restart) a session in the running supervisor' : 'stop a session; it is not resumed until started again')
      .option('--json', 'print JSON')
      .action(async (spec: string, opts: OutputOptions) => {
        const r = await withClient(spec, (c, session) => c.request(action, { session }));
        if (!r.ok) return reportFailure(r, opts);
        reportSuccess({ ok: true, session: r.value }, infoText(r.value), opts);
      });
  }

  for (const [command, method, what] of [
    ['resume-now', 'limit.resume-now', 'resume a session at its usage limit now instead of at its planned time'],
    ['dont-resume', 'limit.dont-resume', 'do not resume a session at its usage limit: it is stopped there'],
  ] as const) {
    program
      .command(`${command} <session>`)
      .description(what)
      .option('--json', 'print JSON')
      .action(async (spec: string, opts: OutputOptions) => {
        const r = await withClient(spec, (c, session) => c.request(method, { session }));
        if (!r.ok) return reportFailure(r, opts);
        reportSuccess({ ok: true, session: r.value }, infoText(r.value), opts);
      });
  }

  program
    .command('send <session> <text...>')
    .description("type text into the session's agent, then Enter")
    .option('--no-enter', 'do not press Enter after the text')
    .option('--json', 'print JSON')
    .action(async (spec: string, words: string[], opts: OutputOptions & { enter: boolean }) => {
      const r = await withClient(spec, (c, session) => c.request('send', { session, text: words.join(' '), enter: opts.enter }));
      if (!r.ok) return reportFailure(r, opts);
      reportSuccess({ ok: true, ...(r.value as object) }, '', opts);
    });

  program
    .command('attach <session>')
    .description('connect this terminal to the session (Ctrl-] detaches)')
    .action(async (spec: string) => {
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        return reportFailure(fail('usage', 'attach needs a terminal: run it in an interactive terminal (stdin and stdout must be a TTY)'), {});
      }
      const connected = await connectTarget(spec);
      if (!connected.ok) return reportFailure(connected, {});
      const { link: client, session, startedNow } = connected.value;
      const size = (): { cols: number; rows: number } => ({ cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 });
      let ended: (reason: string) => void = () => undefined;
      const done = new Promise<string>((resolve) => (ended = resolve));
      client.onStream((m) => {
        if (m.kind === 'frame') {
          if (m.frame.kind === 'snapshot') process.stdout.write('\x1b[H\x1b[2J\x1b[3J' + m.frame.data);
          else {
            process.stdout.write(m.frame.data);
            client.notify('ack', { chars: m.frame.data.length });
          }
        } else if (m.kind === 'detached') ended(m.reason);
      });
      client.onClose(() => ended('the supervisor went away'));
      let r = await client.request('attach', { session, ...size() });
      for (const deadline = Date.now() + STARTING_WAIT_MS; startedNow() && !r.ok && r.code === 'not-running' && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        r = await client.request('attach', { session, ...size() });
      }
      if (!r.ok) {
        client.close();
        return reportFailure(r, {});
      }
      process.stdin.setRawMode(true);
      process.stdin.resume();
      const onInput = (data: Buffer): void => {
        const text = data.toString('utf8');
        const at = text.indexOf(DETACH_KEY);
        if (at >= 0) {
          if (at > 0) client.notify('input', { data: text.slice(0, at) });
          ended('detached');
          return;
        }
        client.notify('input', { data: text });
      };
      const onResize = (): void => client.notify('resize', size());
      process.stdin.on('data', onInput);
      process.stdout.on('resize', onResize);
      const reason = await done;
      process.stdin.off('data', onInput);
      process.stdout.off('resize', onResize);
      process.stdin.setRawMode(false);
      process.stdin.pause();
      client.close();
      process.stdout.write(`\r\n[mori: ${reason}]\r\n`);
    });
}
