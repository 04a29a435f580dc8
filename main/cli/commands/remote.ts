// `mori remote add NAME DESTINATION | ls | rm NAME` and `mori bridge` (DESIGN.md §12, sessions on
// other hosts): the remotes this mori reaches through ssh, kept in $MORI_HOME/remotes.json, and the
// relay ssh runs on the far side. Adding a remote is an approval (refused inside an agent's tree).
// Runs in the CLI process.
import type { Command } from 'commander';
import { fail } from '../../../common/result.js';
import { runBridge } from '../../remote/bridge.js';
import { tryLogin } from '../../remote/login-check.js';
import { DEFAULT_REMOTE_COMMAND, readRemotes, Remote } from '../../remote/remotes-store.js';
import { addRemote, removeRemote } from '../../remote/remotes-update.js';
import { moriHome } from '../../state/mori-home.js';
import { refusedInsideAgent } from '../approver-check.js';
import { reportFailure, reportSuccess, type OutputOptions } from '../output.js';

/** `--ssh-option "-p 2222"`: one ssh option a flag, its argument after the first space (a path may hold more). */
function sshWords(options: readonly string[]): string[] {
  return options.flatMap((o) => {
    const at = o.search(/\s/);
    return at < 0 ? [o] : [o.slice(0, at), o.slice(at).trim()];
  });
}

function remoteLine(r: Remote): string {
  const extra = [r.sshOptions.length > 0 ? `ssh options: ${r.sshOptions.join(' ')}` : '', r.remoteCommand !== DEFAULT_REMOTE_COMMAND ? `runs: ${r.remoteCommand}` : ''].filter(Boolean);
  return `${r.name}  ${r.destination}${extra.length > 0 ? `\n   ${extra.join('\n   ')}` : ''}`;
}

export function registerRemote(program: Command): void {
  const remote = program.command('remote').description('the hosts whose sessions this mori reaches through ssh');

  remote
    .command('add <name> <destination>')
    .description('add a remote: DESTINATION is anything ssh accepts (user@host, a ~/.ssh/config alias)')
    .option('--ssh-option <option>', 'an ssh option with its argument, e.g. "-p 2222" (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option('--remote-command <command>', `what runs on the remote (default: ${DEFAULT_REMOTE_COMMAND})`)
    .option('--json', 'print JSON')
    .action(async (name: string, destination: string, opts: OutputOptions & { sshOption: string[]; remoteCommand?: string }) => {
      const words = sshWords(opts.sshOption);
      if (words.length > 0 && !words[0]?.startsWith('-')) return reportFailure(fail('usage', `--ssh-option ${opts.sshOption[0]}: an ssh option starts with "-"`), opts);
      const parsed = Remote.safeParse({ name, destination, sshOptions: words, ...(opts.remoteCommand !== undefined ? { remoteCommand: opts.remoteCommand } : {}) });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return reportFailure(fail('usage', `${issue?.path.join('.') ?? 'remote'}: ${issue?.message ?? 'invalid'}`), opts);
      }
      // An approval: ssh runs with these options and this command whenever sessions are listed, outside
      // any agent's sandbox (`-oProxyCommand=...` is a command), so only the person adds a remote.
      const refused = await refusedInsideAgent(moriHome(), `\`mori remote add ${name}\` (ssh runs its options and command whenever sessions are listed)`);
      if (refused) return reportFailure(refused, opts);
      const r = await addRemote(moriHome(), parsed.data);
      if (!r.ok) return reportFailure(r, opts);
      // Tried once, so a typo or a closed port shows now rather than as an unreachable row later; kept either way.
      const login = await tryLogin(parsed.data, moriHome());
      const tried = login.ok ? `the ssh login to ${destination} worked` : `${login.message}; the remote is kept: fix ssh, then \`mori ls\``;
      reportSuccess({ ok: true, remote: parsed.data, login: login.ok ? { ok: true } : { ok: false, message: login.message } }, `added ${remoteLine(parsed.data)}\n${tried}\nits sessions show in \`mori ls\` as ${name}:SESSION`, opts);
    });

  remote
    .command('ls')
    .description('list the remotes')
    .option('--json', 'print JSON')
    .action((opts: OutputOptions) => {
      const r = readRemotes(moriHome());
      if (!r.ok) return reportFailure(r, opts);
      reportSuccess({ ok: true, remotes: r.value }, r.value.length === 0 ? 'No remotes: `mori remote add NAME user@host`.' : r.value.map(remoteLine).join('\n'), opts);
    });

  remote
    .command('rm <name>')
    .description('remove a remote (nothing on it changes)')
    .option('--json', 'print JSON')
    .action(async (name: string, opts: OutputOptions) => {
      const r = await removeRemote(moriHome(), name);
      if (!r.ok) return reportFailure(r, opts);
      reportSuccess({ ok: true, removed: name }, `removed ${name}`, opts);
    });

  program
    .command('bridge')
    .description("relay stdin/stdout to this host's Mori supervisor, starting it when none runs (ssh runs this for `mori remote`)")
    .action(async () => {
      const r = await runBridge(moriHome(), process.stdin, process.stdout, (text) => process.stderr.write(text + '\n'));
      if (!r.ok) reportFailure(r, {});
    });
}
