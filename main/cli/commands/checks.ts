// `mori checks S`, `mori verify S [--restart-services]` and `mori trust S [--yes]` (DESIGN.md §7, §9):
// show the checks derived from the state files, run them, and approve the commands (and the network
// checks off this machine) among them (never from inside a supervised agent: approver-check.ts).
// Thin over main/checks/. Runs in the CLI process.
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { allPassed, checkName, sourceText, type CheckResult, type CheckSpec, type UnparsedLine } from '../../../common/checks.js';
import { fail } from '../../../common/result.js';
import { hasHiddenText, visibleLines, visibleText } from '../../../common/visible-text.js';
import { loadChecks } from '../../checks/load-checks.js';
import { formatMs } from '../../checks/run-command.js';
import { agentCommandTrust, approveAgentCommand, approveChecks, checksTrust, needsTrust, type AgentCommandTrust, type TrustItem, type TrustState } from '../../checks/trust.js';
import { verifySession } from '../../checks/verify-session.js';
import { moriHome } from '../../state/mori-home.js';
import { openSession, resolveSession } from '../../state/resolve-session.js';
import { readSessionFile, sessionFilePath } from '../../state/session-file.js';
import { appendEntry } from '../../state/work-log.js';
import { refusedInsideAgent } from '../approver-check.js';
import { printJson, reportFailure, reportSuccess, type OutputOptions } from '../output.js';
import { ranRemotely, remoteOf } from '../remote-of.js';

/** Lines of a failing command's output shown under it in `mori verify`; the full 40 are in --json and session.json. */
const SHOWN_TAIL_LINES = 10;

interface VerifyCliOptions extends OutputOptions {
  restartServices?: boolean;
  serviceDeadline?: string;
}

interface TrustCliOptions extends OutputOptions {
  yes?: boolean;
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function table(rows: string[][]): string[] {
  const widths = rows.reduce<number[]>((w, r) => r.map((c, i) => Math.max(w[i] ?? 0, c.length)), []);
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : pad(c, widths[i] ?? 0))).join('  ').trimEnd());
}

function trustLine(t: TrustState, name: string): string {
  if (t.problem !== null && t.items.length > 0) return `Trust: ${t.items.length} item${t.items.length === 1 ? '' : 's'} not run: ${t.problem}.`;
  if (t.items.length === 0) return 'Trust: nothing to approve (no commands, no start commands, no network checks off this machine).';
  if (t.trusted) return `Trust: ${t.items.length} item${t.items.length === 1 ? '' : 's'} approved${t.approvedAt ? ` at ${t.approvedAt}` : ''}.`;
  return `Trust: ${t.items.length} item${t.items.length === 1 ? '' : 's'} ${t.changed ? 'CHANGED since they were approved' : 'NOT approved'}; they are not run until \`mori trust ${name}\`.`;
}

function unparsedLines(unparsed: readonly UnparsedLine[]): string[] {
  const out: string[] = [];
  const malformed = unparsed.filter((u) => u.severity === 'malformed');
  const other = unparsed.filter((u) => u.severity === 'no-check');
  if (malformed.length > 0) {
    out.push('', 'Malformed check lines (fix them; they are not checked):');
    for (const u of malformed) out.push(`  ${visibleText(sourceText(u.source))}  ${visibleText(u.text)}`, `      ${visibleText(u.reason)}`);
  }
  if (other.length > 0) {
    out.push('', 'Lines not understood as checks:');
    for (const u of other) out.push(`  ${visibleText(sourceText(u.source))}  ${visibleText(u.text)}`, `      ${visibleText(u.reason)}`);
  }
  return out;
}

function checksText(name: string, checks: readonly CheckSpec[], derived: { services: { name: string; start: string | null; checkIds: string[]; source: { file: string; line: number } }[]; unparsed: UnparsedLine[]; notes: string[] }, t: TrustState): string {
  const out: string[] = [];
  if (checks.length === 0) out.push(`No checks derived for "${name}".`);
  else {
    out.push(`Checks of "${name}":`);
    const rows = checks.map((c) => [
      c.kind,
      visibleText(c.target),
      visibleText(`${sourceText(c.source)}${c.label ? ` (${c.label})` : ''}`),
      `timeout ${formatMs(c.timeoutMs)}`,
      needsTrust(c) ? (t.trusted ? 'trusted' : 'needs trust') : '',
    ]);
    out.push(...table(rows).map((l) => `  ${l}`));
  }
  if (derived.services.length > 0) {
    out.push('', 'Services:');
    for (const s of derived.services) {
      out.push(`  ${visibleText(s.name)} (${visibleText(sourceText(s.source))}): ${s.start ? `start: \`${visibleText(s.start)}\`` : 'no start: command (Mori cannot restart it)'}; checks: ${visibleText(s.checkIds.join(', ')) || 'none'}`);
    }
  }
  out.push('', trustLine(t, name));
  out.push(...unparsedLines(derived.unparsed));
  for (const n of derived.notes) out.push(`note: ${visibleText(n)}`);
  return out.join('\n');
}

function resultsText(results: readonly CheckResult[]): string[] {
  const rows = results.map((r) => [r.status.toUpperCase(), r.kind, visibleText(r.target), `${r.durationMs}ms`, visibleText(r.detail.split('\n')[0] ?? '')]);
  const out = table(rows).map((l) => `  ${l}`);
  for (const r of results) {
    if (r.status === 'pass' || !r.outputTail) continue;
    const tail = r.outputTail.split('\n').slice(-SHOWN_TAIL_LINES);
    out.push('', `  output of ${visibleText(checkName(r))} (last ${tail.length} lines):`, ...tail.map((l) => `    | ${visibleText(l)}`));
  }
  return out;
}

/** Said under a list that holds characters shown as escapes: what is approved is exactly those characters. */
const HIDDEN_NOTE =
  '  WARNING: the list holds control or invisible characters, shown above as escapes (\\e is ESC, \\xHH and \\uHHHH a character by its code, \\\\ one backslash); approving approves exactly those characters.';

function trustItemsText(items: readonly TrustItem[]): string[] {
  const lines = items.map((i) => `  ${pad(i.kind, 7)}  ${visibleText(i.value)}\n           from ${visibleText(i.where)}`);
  return items.some((i) => hasHiddenText(i.value) || hasHiddenText(i.where)) ? [...lines, HIDDEN_NOTE] : lines;
}

function agentCommandText(a: AgentCommandTrust): string[] {
  const line = `  agent    ${a.command === null ? '(none: the login shell)' : visibleText(a.command)}\n           from session.json (the ${a.profile} profile's command line)`;
  return a.command !== null && hasHiddenText(a.command) ? [line, HIDDEN_NOTE] : [line];
}

async function ask(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(question);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

export function registerChecks(program: Command): void {
  program
    .command('checks <session>')
    .description('show the checks derived from environment.md and session_state.md, and where each came from')
    .option('--json', 'print JSON')
    .action(async (spec: string, opts: OutputOptions) => {
      if (await ranRemotely(spec, opts, (m, remote, session) => m.remoteChecks(remote, session))) return;
      const opened = openSession(spec);
      if (!opened.ok) return reportFailure(opened, opts);
      const { stateDir, session } = opened.value;
      const loaded = loadChecks(stateDir);
      if (!loaded.ok) return reportFailure(loaded, opts);
      const t = checksTrust(moriHome(), stateDir, loaded.value);
      reportSuccess(
        { ok: true, stateDir: stateDir, ...loaded.value, trust: t },
        checksText(session.name, loaded.value.checks, loaded.value, t),
        opts,
      );
    });

  program
    .command('verify <session>')
    .description('run the checks now; exit 0 when all pass, 1 when any does not')
    .option('--restart-services', 'start failing services that have an approved start: command')
    .option('--service-deadline <seconds>', 'how long a restarted service has to pass its checks (default 30)')
    .option('--json', 'print JSON')
    .action(async (spec: string, opts: VerifyCliOptions) => {
      let deadlineMs: number | undefined;
      if (opts.serviceDeadline !== undefined) {
        const n = Number(opts.serviceDeadline);
        if (!Number.isFinite(n) || n <= 0) return reportFailure(fail('usage', `--service-deadline: "${opts.serviceDeadline}" is not a number of seconds`), opts);
        deadlineMs = n * 1000;
      }
      const target = await remoteOf(spec);
      if (!target.ok) return reportFailure(target, opts);
      if (target.value) {
        // On its host, by its daemon, with that host's approvals and the daemon's own service deadline.
        const { remoteVerify } = await import('../remote-commands.js');
        const r = await remoteVerify(target.value.remote, target.value.session, opts.restartServices ?? false);
        if (!r.ok) return reportFailure(r, opts);
        if (opts.json) printJson(r.value.value);
        else process.stdout.write(visibleLines(r.value.text) + '\n');
        process.exitCode = r.value.passed ? 0 : 1;
        return;
      }
      const dir = resolveSession(spec);
      if (!dir.ok) return reportFailure(dir, opts);
      const abort = new AbortController();
      // Ctrl-C cancels: running commands' process groups are killed and what ran is still recorded.
      const onSignal = () => abort.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      let v;
      try {
        v = await verifySession(dir.value, { restartServices: opts.restartServices ?? false, signal: abort.signal, ...(deadlineMs === undefined ? {} : { serviceDeadlineMs: deadlineMs }) });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      if (!v.ok) return reportFailure(v, opts);
      const { offlineSessionWrite } = await import('../offline-session-write.js');
      const recorded = await offlineSessionWrite(dir.value, v.value.record);
      if (!recorded.ok) return reportFailure(fail(recorded.code, `checks ran but the results could not be recorded: ${recorded.message}`), opts);
      const passed = allPassed(v.value.results);
      const name = readSessionFile(dir.value);
      const sessionName = name.ok ? name.value.name : spec;
      if (opts.json) {
        const { record: _record, ...found } = v.value;
        printJson({ ok: passed, ...(passed ? {} : { code: 'failed' }), message: found.summary.text, stateDir: dir.value, ...found });
      } else {
        const out = [`${sessionName}: ${visibleText(v.value.summary.text)}`, ...resultsText(v.value.results)];
        for (const s of v.value.services) if (s.action !== 'not-needed') out.push('', `service ${visibleText(s.service)}: ${s.action} — ${visibleText(s.detail)}`);
        if (!v.value.trust.trusted) out.push('', trustLine(v.value.trust, sessionName));
        const malformed = v.value.unparsed.filter((u) => u.severity === 'malformed');
        if (malformed.length > 0) out.push('', `${malformed.length} malformed check line${malformed.length === 1 ? '' : 's'} not checked (see \`mori checks ${sessionName}\`).`);
        process.stdout.write(visibleLines(out.join('\n')) + '\n');
      }
      process.exitCode = passed ? 0 : 1;
    });

  program
    .command('trust <session>')
    .description('show the commands the checks would run and the addresses off this machine they would contact, and approve exactly that list')
    .option('--yes', 'approve without a prompt (for scripts)')
    .option('--json', 'print JSON')
    .action(async (spec: string, opts: TrustCliOptions) => {
      // An approval is the person's on the host whose checks would run: never given from here.
      const target = await remoteOf(spec);
      if (!target.ok) return reportFailure(target, opts);
      if (target.value) {
        const { remote, session } = target.value;
        return reportFailure(fail('usage', `approvals for ${spec} are given on ${remote.name}: run \`mori trust ${session}\` there (\`ssh ${remote.destination}\`); nothing was approved`), opts);
      }
      const opened = openSession(spec);
      if (!opened.ok) return reportFailure(opened, opts);
      const { stateDir, session } = opened.value;
      const loaded = loadChecks(stateDir);
      if (!loaded.ok) return reportFailure(loaded, opts);
      const name = session.name;
      const home = moriHome();
      const t = checksTrust(home, stateDir, loaded.value);
      const agent = agentCommandTrust(home, stateDir, session);
      const problem = t.problem ?? agent.problem;
      const agentListing = agent.needed ? { agentCommand: { profile: agent.profile, command: agent.command, hash: agent.hash, trusted: agent.trusted, changed: agent.changed } } : {};
      const listing = { stateDir: stateDir, items: t.items, hash: t.hash, changed: t.changed, ...agentListing };
      if (problem !== null) return reportFailure(fail('unreadable', problem), opts);
      // A command no approval can make safe: said, and nothing approved, so the person fixes it first.
      if (agent.refused !== null) return reportFailure(fail('usage', `${sessionFilePath(stateDir)}: agent.command: ${agent.refused}; nothing was approved`), opts);
      const pendingChecks = t.items.length > 0 && !t.trusted;
      const pendingAgent = agent.needed && !agent.trusted;
      const count = (pendingChecks ? t.items.length : 0) + (pendingAgent ? 1 : 0);
      if (count === 0) {
        const shown = [trustLine(t, name), ...trustItemsText(t.items), ...(agent.needed ? ['Agent command approved:', ...agentCommandText(agent)] : [])];
        return reportSuccess({ ok: true, approved: false, trusted: true, ...listing }, shown.join('\n'), opts);
      }
      const lines: string[] = [];
      if (pendingChecks) lines.push(`${t.changed ? 'The list changed since it was approved. ' : ''}Checks of "${name}" would run or contact:`, ...trustItemsText(t.items));
      if (pendingAgent) lines.push(`${agent.changed ? 'The agent command changed since it was approved. ' : ''}"${name}" would start its agent with:`, ...agentCommandText(agent));
      const text = lines.join('\n');
      // Before any prompt too: an agent's terminal is a terminal, and it could answer the prompt itself.
      const refused = await refusedInsideAgent(home, `\`mori trust ${name}\` (approving commands to run)`);
      if (refused) return reportFailure(refused, opts);
      let approve = opts.yes ?? false;
      if (!approve) {
        if (!process.stdin.isTTY) {
          if (opts.json) printJson({ ok: false, code: 'failed', message: 'not approved: no terminal to ask on; pass --yes to approve', approved: false, trusted: false, ...listing });
          else {
            process.stdout.write(`${visibleLines(text)}\n`);
            process.stderr.write('mori: not approved: no terminal to ask on; pass --yes to approve\n');
          }
          process.exitCode = 1;
          return;
        }
        process.stderr.write(`${visibleLines(text)}\n`);
        approve = await ask(`Approve these ${count} item${count === 1 ? '' : 's'}? [y/N] `);
        if (!approve) return reportFailure(fail('failed', 'not approved; nothing changed'), opts);
      }
      const at = new Date();
      const entries: string[] = [];
      if (pendingChecks) {
        const res = await approveChecks(home, stateDir, t, at);
        if (!res.ok) return reportFailure(res, opts);
        entries.push(`TRUST APPROVED - ${t.items.length} item${t.items.length === 1 ? '' : 's'} (${t.hash.slice(0, 19)}…)`);
      }
      if (pendingAgent) {
        const res = await approveAgentCommand(home, stateDir, session, at);
        if (!res.ok) return reportFailure(res, opts);
        entries.push(`TRUST APPROVED - agent command \`${visibleText(agent.command ?? '')}\``);
      }
      appendEntry(stateDir, entries, at);
      reportSuccess({ ok: true, approved: true, trusted: true, ...listing }, `${opts.yes ? text + '\n' : ''}Approved ${count} item${count === 1 ? '' : 's'} for "${name}".`, opts);
    });
}
