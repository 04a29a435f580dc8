// A helper process that must not outlive the process that started it (the tmux control client of a
// killed daemon): on Linux it is started through util-linux's `setpriv --pdeathsig`, so the kernel
// sends it SIGTERM when its parent dies, however it dies and whatever the helper is waiting on
// (its tmux server frozen, a read that never ends). setpriv execs the program: same pid, same
// command line. Where setpriv is not found (macOS, a Linux without util-linux) the program is
// started as it is.
import { existsSync } from 'node:fs';

/** Where Debian, Fedora and Arch put util-linux's setpriv (2.33+ has --pdeathsig). */
const SETPRIV_PATHS = ['/usr/bin/setpriv', '/bin/setpriv'];

let found: string | null | undefined;

function setpriv(): string | null {
  if (found === undefined) found = process.platform === 'linux' ? (SETPRIV_PATHS.find((p) => existsSync(p)) ?? null) : null;
  return found;
}

/** [file, args] that start `file args` so that it gets SIGTERM when this process ends. */
export function endsWithParent(file: string, args: readonly string[]): [string, string[]] {
  const wrapper = setpriv();
  return wrapper === null ? [file, [...args]] : [wrapper, ['--pdeathsig', 'TERM', '--', file, ...args]];
}
