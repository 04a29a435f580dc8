// The hook program every agent's hooks run (DESIGN.md §4 "Hooks"): a POSIX sh script Mori keeps in
// its own home (`$MORI_HOME/hooks/report.sh`, rewritten when its text differs). A call
// `sh report.sh <spool dir> <event> [payload]` copies the hook's JSON (stdin, or the last argument
// for codex's notify) into a temp file of the spool dir and renames it to `<pid>.<event>`, then
// exits 0 — at once, always: no network, no waiting on the daemon, nothing when the dir is gone. A
// shell because starting Node (~130 ms) or Python (~80 ms) here would not meet the 50 ms budget per
// call. Writes only under Mori's home; any Node process.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isAgentFileError, readAgentFileSync } from '../../os/agent-file.js';

/** Mori's hooks dir: the script, each launch's settings layer and spool dir. */
export const HOOKS_DIR = 'hooks';
export const REPORT_SCRIPT = 'report.sh';
/** Temp names the script writes into before the rename: the reader skips them. */
export const SPOOL_TEMP_PREFIX = '.t.';
/** The event names the script accepts (also what the reader accepts in a file name). */
export const EVENT_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export const REPORT_SCRIPT_TEXT = `#!/bin/sh
# Mori's hook report: spools one hook call for the Mori daemon and exits 0 at once.
# usage: sh report.sh <spool dir> <event> [payload ...]   (no payload argument: the payload is stdin)
d=$1
e=$2
[ -d "$d" ] || exit 0
case $e in ''|[!A-Za-z]*|*[!A-Za-z0-9_-]*) exit 0 ;; esac
# One call per process, so the pid names its files (mktemp would cost another process per call).
t="$d/${SPOOL_TEMP_PREFIX}$$"
if [ $# -gt 2 ]; then
  for a in "$@"; do p=$a; done
  printf '%s' "$p" >"$t" 2>/dev/null
else
  cat >"$t" 2>/dev/null
fi
mv -f "$t" "$d/$$.$e" 2>/dev/null || rm -f "$t" 2>/dev/null
exit 0
`;

/** `$MORI_HOME/hooks`. */
export const hooksDir = (home: string): string => path.join(home, HOOKS_DIR);

/** Writes the script into Mori's home unless it already holds this text; its path. Throws on an unwritable home. */
export function ensureReportScript(home: string): string {
  const dir = hooksDir(home);
  const file = path.join(dir, REPORT_SCRIPT);
  // Absent, unreadable or not a plain file (a FIFO there is never waited on): written below.
  const read = readAgentFileSync(file, Buffer.byteLength(REPORT_SCRIPT_TEXT));
  const current = isAgentFileError(read) ? null : read.toString('utf8');
  if (current !== REPORT_SCRIPT_TEXT) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, REPORT_SCRIPT_TEXT, { mode: 0o700 });
    renameSync(tmp, file);
  }
  return file;
}

/** One word for a shell command line: single-quoted, a `'` inside closed, escaped and reopened. */
export const shellWord = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The shell command a hook setting runs for `event` (agents that run hook commands through a shell). */
export const reportCommand = (script: string, spoolDir: string, event: string): string =>
  `sh ${shellWord(script)} ${shellWord(spoolDir)} ${event}`;
