// `mori start S | stop S | resume-now S | dont-resume S | send S TEXT | handoff S --to PROFILE` (DESIGN.md §9, §12): act on the running supervisor
// through its control socket, starting the daemon first when none answers (and saying so); S as
// `host:session` acts on a remote's daemon through ssh (its bridge starts it there). How a command
// reaches S's daemon (`connectTarget`) is shared with `attach` (attach.ts). Runs in the CLI process.
import type { Command } from 'commander';
import { LiveSession } from '../../../common/ipc.js';
import type { Result } from '../../../common/result.js';
import { preciseState } from '../../../common/session-view.js';
import { ProfileName } from '../../../common/session.js';
import { resolveSession } from '../../state/resolve-session.js';
import { readSessionFile } from '../../state/session-file.js';
import { connectOrStart, type Started } from '../../daemon-client/daemon-process.js';
import { moriHome } from '../../state/mori-home.js';
import { RemoteClient } from '../../remote/remote-client.js';
import type { Remote } from '../../remote/remotes-store.js';
import { refusedInsideAgent } from '../approver-check.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { remoteTarget, type DaemonLink } from '../remote-target.js';

/** The session id when S resolves here (names are resolved by the current directory), else S as typed. */
export function sessionRef(spec: string): string {
  const dir = resolveSession(spec);
  if (!dir.ok) return spec;
  const file = readSessionFile(dir.value);
  return file.ok ? file.value.id : spec;
}

/** How long a request waits for a session the just-started daemon is still bringing up. */
export const STARTING_WAIT_MS = 20_000;

function sayStarted(s: Started): void {
  process.stderr.write(`mori: no Mori supervisor is running; started a daemon (pid ${s.pid}, logs in ${s.logs})\n`);
}

/** What the bridge prints when it started the remote's daemon (remote/bridge.ts). */
const BRIDGE_STARTED = /^mori bridge: no Mori supervisor was running/m;

/** A connection to the daemon S belongs to, the session's reference there, whether that daemon was started just now, and the remote it is on. */
export interface Target {
  link: DaemonLink;
  session: string;
  startedNow: () => boolean;
  remote: Remote | null;
}

export async function connectTarget(spec: string): Promise<Result<Target>> {
  const remote = remoteTarget(spec);
  if (!remote.ok) return remote;
  if (remote.value) {
    const { remote: r, session } = remote.value;
    const c = await RemoteClient.connect(r);
    if (!c.ok) return c;
    return { ok: true, value: { link: c.value, session, startedNow: () => BRIDGE_STARTED.test(c.value.stderr), remote: r } };
  }
  let startedNow = false;
  const client = await connectOrStart(moriHome(), (s) => {
    startedNow = true;
    sayStarted(s);
  });
  if (!client.ok) return client;
  return { ok: true, value: { link: client.value, session: sessionRef(spec), startedNow: () => startedNow, remote: null } };
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

/** A session's answer in a line; one on a remote is named `host:name` and says it is on that host. */
export function infoText(value: unknown, host: string | null = null): string {
  const info = LiveSession.safeParse(value);
  if (!info.success) return '';
  const i = info.data;
  return `${host !== null ? `${host}:` : ''}${i.name}: ${preciseState(i)}${i.pid !== null ? ` (pid ${i.pid})` : ''}${host !== null ? ` on ${host}` : ''}`;
}

/** The remote a reference names, for the lines above (null for a local session). */
const hostOf = (spec: string): string | null => {
  const t = remoteTarget(spec);
  return t.ok && t.value ? t.value.remote.name : null;
};

export function registerControl(program: Command): void {
  for (const action of ['start', 'stop'] as const) {
    program
      .command(`${action} <session>`)
      .description(action === 'start' ? 'start (or restart) a session in the running supervisor' : 'stop a session; it is not resumed until started again')
      .option('--json', 'print JSON')
      .action(async (spec: string, opts: OutputOptions) => {
        // Starting launches an agent: the person's, never an agent's (the daemon refuses it too).
        if (action === 'start') {
          const refused = await refusedInsideAgent(moriHome(), `\`mori start ${spec}\` (starting a session launches its agent)`);
          if (refused) return reportFailure(refused, opts);
        }
        const r = await withClient(spec, (c, session) => c.request(action, { session }));
        if (!r.ok) return reportFailure(r, opts);
        reportSuccess({ ok: true, session: r.value }, infoText(r.value, hostOf(spec)), opts);
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
        reportSuccess({ ok: true, session: r.value }, infoText(r.value, hostOf(spec)), opts);
      });
  }

  program
    .command('handoff <session>')
    .description("hand a session to an agent of another profile: its agent is stopped (its id kept), the new one starts with the resume prompt")
    .requiredOption('--to <profile>', 'the agent profile to continue with (claude, codex, gemini, opencode, aider, shell, custom)')
    .option('--reason <words>', 'why, for the work log and the new agent')
    .option('--command <cmd>', 'the command line, for the shell and custom profiles')
    .option('--json', 'print JSON')
    .action(async (spec: string, opts: OutputOptions & { to: string; reason?: string; command?: string }) => {
      // A hand-off launches an agent: the person's, never an agent's (the daemon refuses it too).
      const refused = await refusedInsideAgent(moriHome(), `\`mori handoff ${spec}\` (a hand-off launches another agent)`);
      if (refused) return reportFailure(refused, opts);
      const profile = ProfileName.safeParse(opts.to);
      if (!profile.success) return reportFailure({ ok: false, code: 'usage', message: `--to: unknown agent profile "${opts.to}" (one of: ${ProfileName.options.join(', ')})` }, opts);
      const params = { profile: profile.data, ...(opts.reason !== undefined ? { reason: opts.reason } : {}), ...(opts.command !== undefined ? { command: opts.command } : {}) };
      const r = await withClient(spec, (c, session) => c.request('session.handoff', { session, ...params }));
      if (!r.ok) return reportFailure(r, opts);
      reportSuccess({ ok: true, session: r.value }, infoText(r.value), opts);
    });

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
}
