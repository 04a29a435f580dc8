// What Mori lets git do (DESIGN.md §11): the subcommands it runs and, for each, the arguments it
// always gets or never gets, the config every run is given on the command line and the environment it
// runs in. safe-git.ts, the one place git is started, applies it to every run. Any Node process.
//
// Only the subcommands in ALLOWED_SUBCOMMANDS run; each new one needs its config keys reviewed here.
// `rev-parse` and `config` read the repository's config, but under the overrides below neither starts
// a program; `status` does not read it at all (see filter drivers). Checkpoint snapshots
// (snapshot.ts) add, all on the private git dir (no repository config at all) unless said otherwise:
//   add -A           into a temporary index (GIT_INDEX_FILE in the private dir): hashes files like
//                    status, so the same filter-driver rule holds; no hook runs (hooksPath, and the
//                    private dir has no hooks dir); no pathspec from outside (snapshot.ts passes none)
//   write-tree, commit-tree, for-each-ref, ls-tree
//                    read or write objects and refs only; commit-tree gets --no-gpg-sign (commit.gpgSign
//                    of ~/.gitconfig) and a fixed identity in the environment
//   diff-tree        tree against tree, never the working tree; always --no-ext-diff --no-textconv
//                    (diff.<driver>.command/textconv are never looked up), --no-renames
//   diff-index       --cached only (forced first): a tree against the temporary index, never the
//                    working tree; the same --no-ext-diff --no-textconv --no-renames as diff-tree
//   cat-file         --batch only, never --filters/--textconv: blobs come out as stored, no smudge
//   check-ignore     --no-index: reads .gitignore files and info/exclude only
//   read-tree        -u --reset only, to fill a session's new worktree (session-worktree.ts): on the
//                    private git dir like status, so no filter driver of the repository's config runs
//   worktree         `add --no-checkout` (writes no file of the tree, so no smudge filter runs; the
//                    files come from read-tree above) and `remove --force` (after Mori's own checks
//                    on the private dir: without --force, git would run a status with the repository's
//                    config, and so its filter drivers). Both run with the repository's own git dir.
//   check-ref-format --branch only: checks a branch name, reads no file of the working tree
//   update-ref       --stdin only, every line naming a ref under refs/mori/ (checked here). It runs on
//                    the repository's own git dir, as rev-parse does: a private dir only links refs
//                    and packed-refs, and a deletion rewriting packed-refs would replace the link. It
//                    reads the config, where the reference-transaction hook is the one program it
//                    could start: core.hooksPath=/dev/null. core.logAllRefUpdates=false: no reflog.
// Config keys that can start a program, and what neutralises each for these subcommands:
//   core.fsmonitor              -c core.fsmonitor=false (status would run it as a hook)
//   core.untrackedCache         -c core.untrackedCache=false (no cache written behind fsmonitor's back)
//   core.hooksPath, hooks       -c core.hooksPath=/dev/null; gc.auto=0 and maintenance.auto=false keep
//                               auto-gc (and its pre-auto-gc hook) from starting
//   core.pager, pager.<cmd>     --no-pager, GIT_PAGER=cat, PAGER=cat, -c core.pager=cat
//   core.editor, sequence.editor  GIT_EDITOR=true, GIT_SEQUENCE_EDITOR=true, -c core.editor=true
//   core.askPass, credential.helper  GIT_ASKPASS=true, SSH_ASKPASS=true, GIT_TERMINAL_PROMPT=0,
//                               -c credential.helper= (an empty value clears the helper list)
//   core.sshCommand, core.gitProxy, remote.<r>.uploadpack/receivepack, protocol handlers
//                               -c protocol.allow=never (no transport at all), GIT_SSH_COMMAND=false,
//                               -c core.sshCommand=false
//   diff.external               -c diff.external= and GIT_EXTERNAL_DIFF removed; status never diffs
//                               contents, so diff.<driver>.textconv/command are not read
//   gpg.program (and .ssh/.x509)  -c gpg.*.program=false; none of these subcommands signs or verifies
//   filter.<driver>.clean/smudge/process
//                               status hashes a tracked file whose stat data changed but whose size did
//                               not, through the clean filter its attributes name. Attributes come from
//                               the tree and .git/info/attributes, which outrank anything given on the
//                               command line, and a driver can have any name, so no -c can cover them.
//                               A status therefore never reads the repository's config at all: it runs
//                               on a private git dir (private-git-dir.ts) whose config holds only the
//                               repository's keys of SAFE_REPO_KEYS, none of which names a program.
//                               Drivers in the person's own ~/.gitconfig (git-lfs) still apply.
//   submodules                  --ignore-submodules=all on status and -c submodule.recurse=false:
//                               a submodule's own config is never read
// Every GIT_* variable of Mori's own environment is dropped (GIT_DIR, GIT_CONFIG_PARAMETERS, ...),
// and GIT_CONFIG_NOSYSTEM=1 leaves /etc/gitconfig out. The person's ~/.gitconfig is still read.

/** What Mori asks git (see the header for each). */
export const ALLOWED_SUBCOMMANDS = new Set(['status', 'rev-parse', 'config', 'add', 'write-tree', 'commit-tree', 'for-each-ref', 'ls-tree', 'diff-tree', 'diff-index', 'cat-file', 'check-ignore', 'update-ref', 'read-tree', 'worktree', 'check-ref-format']);
/** Run on a private git dir: they read file contents (attributes, filters) or are only ever used beside those that do. */
export const READS_CONTENTS = new Set(['status', 'add', 'write-tree', 'commit-tree', 'for-each-ref', 'ls-tree', 'diff-tree', 'diff-index', 'cat-file', 'check-ignore', 'read-tree']);
/** Arguments each subcommand always gets, right after its name. */
const REQUIRED_ARGS: Readonly<Record<string, readonly string[]>> = {
  'commit-tree': ['--no-gpg-sign'],
  'diff-tree': ['--no-ext-diff', '--no-textconv', '--no-renames'],
  'diff-index': ['--cached', '--no-ext-diff', '--no-textconv', '--no-renames'],
  'check-ignore': ['--no-index'],
};
/** Arguments refused anywhere on a subcommand's line: each would run a filter, a textconv or a diff program. */
const REFUSED_ARGS = /^--(?:filters|textconv|ext-diff|exec|upload-pack|gpg-sign|batch-command)(?:=|$)|^-S/;
/** A ref Mori may write: its own namespace only. */
export const MORI_REF = /^refs\/mori\/[A-Za-z0-9._/-]+$/;

/** Set before every subcommand; `-c` outranks the repository's and the person's config. */
const FIXED_CONFIG: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.untrackedCache', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', 'true'],
  ['sequence.editor', 'true'],
  ['core.askPass', 'true'],
  ['core.sshCommand', 'false'],
  ['credential.helper', ''],
  ['protocol.allow', 'never'],
  ['diff.external', ''],
  ['gpg.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['submodule.recurse', 'false'],
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['core.logAllRefUpdates', 'false'],
];

const FIXED_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  GIT_EDITOR: 'true',
  GIT_SEQUENCE_EDITOR: 'true',
  GIT_ASKPASS: 'true',
  SSH_ASKPASS: 'true',
  GIT_SSH_COMMAND: 'false',
  GIT_TERMINAL_PROMPT: '0',
  GIT_OPTIONAL_LOCKS: '0',
  // A partial clone's missing object is never fetched (from git 2.44; protocol.allow=never before).
  GIT_NO_LAZY_FETCH: '1',
};

/** `git <fixed options> -C dir <args>`, for a subcommand in ALLOWED_SUBCOMMANDS. */
export function gitArgs(dir: string, args: readonly string[]): string[] {
  const sub = args[0] ?? '';
  if (!ALLOWED_SUBCOMMANDS.has(sub)) throw new Error(`git ${sub}: not a subcommand Mori runs (git-policy.ts lists them)`);
  const end = args.indexOf('--');
  const refused = (end < 0 ? args : args.slice(0, end)).find((a) => REFUSED_ARGS.test(a));
  if (refused !== undefined) throw new Error(`git ${sub} ${refused}: an option Mori never passes (git-policy.ts)`);
  if (sub === 'update-ref' && (args.length !== 3 || args[1] !== '--stdin' || args[2] !== '-z')) throw new Error('update-ref: only `--stdin -z` (git-policy.ts)');
  if (sub === 'cat-file' && (args.length !== 2 || args[1] !== '--batch')) throw new Error('cat-file: only `--batch` (git-policy.ts)');
  if (sub === 'read-tree' && (args[1] !== '-u' || args[2] !== '--reset')) throw new Error('read-tree: only `-u --reset` (git-policy.ts)');
  if (sub === 'worktree' && !((args[1] === 'add' && args[2] === '--no-checkout') || (args[1] === 'remove' && args[2] === '--force'))) throw new Error('worktree: only `add --no-checkout` and `remove --force` (git-policy.ts)');
  if (sub === 'check-ref-format' && (args.length !== 3 || args[1] !== '--branch')) throw new Error('check-ref-format: only `--branch NAME` (git-policy.ts)');
  const config = FIXED_CONFIG.flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  return ['--no-pager', '--no-optional-locks', ...config, '-C', dir, sub, ...(REQUIRED_ARGS[sub] ?? []), ...args.slice(1)];
}

/** Mori's environment without any GIT_* variable, plus the fixed ones and `extra` (a private git dir's). */
export function gitEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_') && k !== 'PAGER') env[k] = v;
  return Object.assign(env, FIXED_ENV, extra);
}
