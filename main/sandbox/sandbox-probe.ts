// Whether a bubblewrap sandbox can be made here (DESIGN.md §11 "Sandbox"): bwrap is installed and the
// kernel lets it make the namespaces. One cheap probe (`bwrap … true`) per program, its answer kept for
// the process's life; a failure names what is missing and how to install or allow it. Runs in the
// supervisor's process.
import { execFile } from 'node:child_process';
import { fail, ok, type Result } from '../../common/result.js';
import { BWRAP } from './bwrap-args.js';

/** The variable that names another bubblewrap program (a build of one's own, or a test's absent one). */
export const BWRAP_VAR = 'MORI_BWRAP';

/** bwrap starts in a few ms; a probe still waiting after this is stuck, not slow. */
const PROBE_TIMEOUT_MS = 10_000;

const INSTALL = 'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)';
const USERNS =
  'allow unprivileged user namespaces (sysctl -w kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later also kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for bwrap)';

/** The bubblewrap program a launch runs. */
export const bwrapProgram = (env: Readonly<Record<string, string | undefined>>): string => env[BWRAP_VAR] || BWRAP;

/** Runs the probe once: ok, or what is missing and how to get it. */
export function probeBwrap(program: string): Promise<Result<true>> {
  return new Promise((resolve) => {
    execFile(program, ['--die-with-parent', '--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', 'true'], { timeout: PROBE_TIMEOUT_MS }, (err, _out, stderr) => {
      if (err === null) return resolve(ok(true));
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return resolve(fail('not-found', `the sandbox needs bubblewrap, and "${program}" was not found: ${INSTALL}`));
      if (code === 'EACCES') return resolve(fail('failed', `the sandbox needs bubblewrap, and "${program}" cannot be run (permission denied): ${INSTALL}`));
      const said = String(stderr).trim().split('\n')[0] ?? '';
      if (/namespace|uid map|Operation not permitted|Permission denied/i.test(said)) return resolve(fail('failed', `bubblewrap cannot make its sandbox here (${said}): ${USERNS}`));
      resolve(fail('failed', `bubblewrap cannot make its sandbox here (${said || err.message})`));
    });
  });
}

const probes = new Map<string, Promise<Result<true>>>();

/** The probe's answer for `program`, probed on the first call of this process only. */
export function sandboxAvailable(program: string): Promise<Result<true>> {
  let p = probes.get(program);
  if (p === undefined) {
    p = probeBwrap(program);
    probes.set(program, p);
  }
  return p;
}
