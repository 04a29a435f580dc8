// Holding a tmux pane's program while a view lags (flow control, DESIGN.md §6): the pane's terminal
// stops taking output, as a terminal does on XOFF (`tcflow(TCOOFF)` on the pane's tty), so the
// program blocks in its next write exactly as a direct pty that is not read; `TCOON` lets it go on.
// Node has no tcflow, so a one-line perl (or python3) helper makes the call. Runs in the
// supervisor's process.
//
// Why not tmux's own per-pane controls (checked against tmux 3.2 to 3.5a, and measured on 3.3a):
// `refresh-client -A '%pane:pause'` (and `-f pause-after`) only stops sending the pane's output to
// that one client; tmux keeps reading the pane and throws the output away, so the program runs on
// at full speed and the client loses what it wrote. `%pane:off` is just as lossy, and tmux stops
// reading the pane only when every attached client turned it off (ignored altogether before 3.4).
// Not reading the control client's stdout holds the pane only while no other client is attached to
// any session of the server, and it stops that client's command replies too. So no tmux version
// holds one pane of a shared server without losing output. Stopping the program with a signal does
// not work either: tmux continues a pane's program stopped by SIGSTOP or SIGTSTP, and its panes
// start with SIGTTOU ignored.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { pidAlive } from '../../os/pid-alive.js';

/**
 * The helper, as a perl program: `perl -MPOSIX -e SCRIPT <tty> off|on`. Written without `$`, quotes
 * or backslashes, so it also survives the shell and tmux quoting of releaseOnDetachHook().
 */
const PERL_SCRIPT = 'sysopen(T, shift, O_RDWR|O_NOCTTY|O_NONBLOCK) or die; tcflow(fileno(T), shift eq q(off) ? TCOOFF : TCOON) or die';
const PYTHON_SCRIPT =
  'import os, sys, termios; termios.tcflow(os.open(sys.argv[1], os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK), termios.TCOOFF if sys.argv[2] == "off" else termios.TCOON)';
/** The helper answers in milliseconds; a hung one must not hold the next hold or release for ever. */
const HELPER_TIMEOUT_MS = 5000;

type Helper = { file: string; args: string[] } | null;

const run = (file: string, args: string[]): Promise<boolean> =>
  new Promise((resolve) => execFile(file, args, { timeout: HELPER_TIMEOUT_MS }, (error) => resolve(!error)));

let helper: Promise<Helper> | null = null;

/** perl where it runs (every Linux base system and macOS have it), else python3, else none. */
function findHelper(): Promise<Helper> {
  helper ??= (async () => {
    if (await run('perl', ['-MPOSIX', '-e', '1'])) return { file: 'perl', args: ['-MPOSIX', '-e', PERL_SCRIPT] };
    if (await run('python3', ['-c', 'import termios'])) return { file: 'python3', args: ['-c', PYTHON_SCRIPT] };
    return null;
  })();
  return helper;
}

const HAS_PROC = existsSync('/proc/self/stat');

/** A device number as major and minor (Linux's encoding, as in /proc/<pid>/stat and st_rdev). */
const devParts = (dev: number): [number, number] => [Math.floor(dev / 256) & 0xfff, (dev & 0xff) | (Math.floor(dev / 4096) & 0xfff00)];

/**
 * Whether `tty` is still the controlling terminal of `pid`. A pane's `/dev/pts/N` is handed to the
 * next new terminal as soon as the pane is gone: stopping it then would hold somebody else's
 * program. Linux checks /proc; elsewhere nothing can tell, and a live pane is assumed.
 */
export function ttyBelongsTo(tty: string, pid: number): boolean {
  if (!HAS_PROC) return pidAlive(pid);
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // Fields after the command name: state ppid pgrp session tty_nr ...
  const ttyNr = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[4]);
  try {
    const [major, minor] = devParts(statSync(tty).rdev);
    const [pmajor, pminor] = devParts(ttyNr);
    return major === pmajor && minor === pminor;
  } catch {
    return false;
  }
}

/**
 * Stops (`on` false) or restarts the output of the terminal at `tty` (a pane's `/dev/pts/N`, whose
 * program is `pid`). Resolves false when it could not: no helper here (then flow control cannot
 * hold a tmux pane, and a lagging view just falls further behind), or the pane is gone.
 */
export async function setPaneOutput(tty: string, pid: number, on: boolean): Promise<boolean> {
  if (!tty.startsWith('/dev/')) return false;
  const found = await findHelper();
  if (!found) return false;
  // Restarting output is harmless anywhere; stopping it only where it is still the pane's.
  if (!on && !ttyBelongsTo(tty, pid)) return false;
  return run(found.file, [...found.args, tty, on ? 'on' : 'off']);
}

/**
 * A tmux hook command that restarts the pane's output when a client leaves its session: if Mori
 * dies while it holds a pane, its control client goes, and tmux lets the program go on.
 */
export const releaseOnDetachHook = (tty: string): string => `run-shell -b 'perl -MPOSIX -e "${PERL_SCRIPT}" ${tty} on || true'`;
