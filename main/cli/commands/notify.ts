// `mori notify add ntfy|webhook URL [--on EVENTS]`, `mori notify ls`, `mori notify rm <id|n>`,
// `mori notify test` (DESIGN.md §13 "Notices off the machine"): the targets notices are sent to off
// the machine, kept in settings.json (0600), their URLs shown masked. Adding, removing and testing
// are the person's (refused from inside a supervised agent, here and by the daemon). Through the
// running daemon when one answers; `add`, `ls` and `rm` edit settings.json themselves when none
// does; `test` needs the daemon, which is what sends notices. Runs in the CLI process.
import type { Command } from 'commander';
import type { NotifyTarget } from '../../../common/daemon-settings.js';
import { TARGET_DEFAULT_EVENTS, TARGET_KINDS, type TargetKind } from '../../../common/notify-events.js';
import { isHttpUrl, parseTargetEvents } from '../../../common/notify-targets.js';
import { fail, ok, type Result } from '../../../common/result.js';
import { addTarget, readSettings, removeTarget, shownTarget } from '../../daemon/daemon-settings.js';
import { moriHome } from '../../state/mori-home.js';
import { refusedInsideAgent } from '../approver-check.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { viaRunningDaemon } from '../running-daemon.js';

const targetLine = (t: NotifyTarget, i: number): string => `${i + 1}  ${t.id}  ${t.kind.padEnd(7)}  ${t.url}  ${t.events.join(',')}`;

function listTargets(home: string): Promise<Result<NotifyTarget[]>> {
  return viaRunningDaemon('mori notify ls', (c) => c.request('notify.list', {}), async () => {
    const r = readSettings(home);
    return r.ok ? ok(r.value.notifyTargets.map(shownTarget)) : r;
  }, home);
}

export function registerNotify(program: Command): void {
  const notify = program.command('notify').description('notices off the machine: ntfy or a JSON webhook, told of needs-input, failures, limits, finished sessions');
  notify
    .command('add <kind> <url>')
    .description(`add a target (${TARGET_KINDS.join('|')}); its URL may carry a token: kept in settings.json (0600), shown masked`)
    .option('--on <events>', `the events it is sent, comma-separated, or all (default: ${TARGET_DEFAULT_EVENTS.join(',')})`)
    .option('--json', 'print JSON')
    .action(async (kind: string, url: string, opts: OutputOptions & { on?: string }) => {
      if (!(TARGET_KINDS as readonly string[]).includes(kind)) return reportFailure(fail('usage', `"${kind}" is not a kind of target: expected ${TARGET_KINDS.join(' or ')}`), opts);
      if (!isHttpUrl(url)) return reportFailure(fail('usage', 'the target is not an http:// or https:// URL'), opts);
      const events = opts.on === undefined ? ok([...TARGET_DEFAULT_EVENTS]) : parseTargetEvents(opts.on);
      if (!events.ok) return reportFailure(events, opts);
      const home = moriHome();
      // The daemon refuses it too; asked here as well, since with no daemon this writes settings.json itself.
      const refused = await refusedInsideAgent(home, 'adding a notice target');
      if (refused) return reportFailure(refused, opts);
      const target = { kind: kind as TargetKind, url, events: events.value };
      const r = await viaRunningDaemon('mori notify add', (c) => c.request('notify.add', target), async () => {
        const added = await addTarget(home, target);
        return added.ok ? ok(shownTarget(added.value.target)) : added;
      }, home);
      if (!r.ok) return reportFailure(r, opts);
      reportSuccess({ ok: true, target: r.value }, `Added ${r.value.kind} target ${r.value.id}: ${r.value.url} (${r.value.events.join(', ')}).`, opts);
    });
  notify
    .command('ls')
    .description('list the targets, their URLs masked')
    .option('--json', 'print JSON')
    .action(async (opts: OutputOptions) => {
      const r = await listTargets(moriHome());
      if (!r.ok) return reportFailure(r, opts);
      reportSuccess({ ok: true, targets: r.value }, () => (r.value.length === 0 ? 'No notice targets (mori notify add ntfy|webhook URL).' : r.value.map(targetLine).join('\n')), opts);
    });
  notify
    .command('rm <target>')
    .description('remove a target, by its id or its number in mori notify ls')
    .option('--json', 'print JSON')
    .action(async (ref: string, opts: OutputOptions) => {
      const home = moriHome();
      const refused = await refusedInsideAgent(home, 'removing a notice target');
      if (refused) return reportFailure(refused, opts);
      const r = await viaRunningDaemon('mori notify rm', (c) => c.request('notify.remove', { target: ref }), async () => {
        const removed = await removeTarget(home, ref);
        return removed.ok ? ok(shownTarget(removed.value.target)) : removed;
      }, home);
      if (!r.ok) return reportFailure(r, opts);
      reportSuccess({ ok: true, target: r.value }, `Removed ${r.value.kind} target ${r.value.id}: ${r.value.url}.`, opts);
    });
  notify
    .command('test')
    .description('send one test notice to every target now')
    .option('--json', 'print JSON')
    .action(async (opts: OutputOptions) => {
      const home = moriHome();
      const refused = await refusedInsideAgent(home, 'sending a test notice');
      if (refused) return reportFailure(refused, opts);
      const r = await viaRunningDaemon('mori notify test', (c) => c.request('notify.test', {}), async () => fail('failed', 'no Mori daemon runs: notices are sent by it (mori up starts one)'), home);
      if (!r.ok) return reportFailure(r, opts);
      const failed = r.value.filter((t) => !t.ok);
      reportSuccess({ ok: failed.length === 0, results: r.value }, () => (r.value.length === 0 ? 'No notice targets (mori notify add ntfy|webhook URL).' : r.value.map((t) => `${t.id}  ${t.url}  ${t.ok ? 'delivered' : 'not delivered'} (${t.detail})`).join('\n')), opts);
      if (failed.length > 0) process.exitCode = 1;
    });
}
