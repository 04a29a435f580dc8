// The operating system's hold on idle sleep while Mori keeps the machine awake (keep-awake.ts): one
// child process that holds it for as long as it lives — `systemd-inhibit --what=idle:sleep` on
// Linux, `caffeinate -i` on macOS — each told to end with the daemon, so a daemon killed outright
// leaves no hold behind (`tail --pid` under systemd-inhibit; caffeinate's own `-w`). A lid that
// closes still suspends: only idle sleep is held. Runs in the daemon.
import { spawn, type ChildProcess } from 'node:child_process';

export interface InhibitorCommand {
  program: string;
  args: string[];
}

/** The command that holds idle sleep for `why` until process `pid` ends, or null where there is none (Windows: the app's own blocker). */
export function inhibitorCommand(platform: NodeJS.Platform, pid: number, why: string): InhibitorCommand | null {
  if (platform === 'linux') {
    // `tail --pid` ends within a second of the daemon, and systemd-inhibit with it.
    return { program: 'systemd-inhibit', args: ['--what=idle:sleep', '--who=Mori', `--why=${why}`, '--mode=block', 'tail', `--pid=${pid}`, '-f', '/dev/null'] };
  }
  if (platform === 'darwin') return { program: 'caffeinate', args: ['-i', '-w', String(pid)] };
  return null;
}

/** Holds idle sleep while held; `release` ends the hold. A program that cannot start says so once through `onProblem`. */
export class SleepInhibitor {
  private child: ChildProcess | null = null;
  /** Held without a process: the platform has no inhibitor program (the app's own blocker holds instead). */
  private nominal = false;

  constructor(
    private readonly command: () => InhibitorCommand | null,
    private readonly onProblem: (message: string) => void,
  ) {}

  get held(): boolean {
    return this.child !== null || this.nominal;
  }

  /** The holding process's pid, while it holds. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  hold(): void {
    if (this.held) return;
    const c = this.command();
    if (!c) {
      // Held in name, so the decision is not retried (and said again) after every event.
      this.nominal = true;
      return this.onProblem(`the daemon alone cannot keep the machine awake on ${process.platform}: the app does, while it runs`);
    }
    const child = spawn(c.program, c.args, { stdio: 'ignore' });
    this.child = child;
    child.on('error', (e) => {
      if (this.child === child) this.child = null;
      this.onProblem(`cannot keep the machine awake: ${c.program}: ${e.message}`);
    });
    child.on('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = null;
      // It ended by itself (no logind, refused): the hold is gone; the next change tries again.
      this.onProblem(`${c.program} ended (${signal ?? `exit ${code}`}): the machine is not kept awake`);
    });
  }

  release(): void {
    const child = this.child;
    this.child = null;
    this.nominal = false;
    child?.kill('SIGTERM');
  }
}
