// Identifies the current boot, so a pid or lock written before a reboot is known to be stale.
// Linux: the kernel's random boot_id; macOS: kern.bootsessionuuid; elsewhere the boot time to the
// minute. MORI_BOOT_ID overrides it (tests fake a reboot with it). Any Node process.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

let cached: string | undefined;

export function bootId(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MORI_BOOT_ID) return env.MORI_BOOT_ID;
  cached ??= readBootId();
  return cached;
}

function readBootId(): string {
  try {
    if (process.platform === 'linux') return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    if (process.platform === 'darwin') return execFileSync('sysctl', ['-n', 'kern.bootsessionuuid'], { encoding: 'utf8' }).trim();
  } catch {
    // fall through to the boot time
  }
  // Rounded to a minute because uptime and the wall clock are read at slightly different moments.
  const bootMs = Date.now() - os.uptime() * 1000;
  return `boot-${Math.round(bootMs / 60_000)}`;
}
