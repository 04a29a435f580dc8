// The running supervisor of this Mori home, asked when one answers: a command that acts on a session's
// files itself when no daemon runs (`mori rm`, `mori rename`, `mori checkpoint`) goes through the
// daemon when one does, so the daemon's view stays true and it announces the change to the window and
// `mori ls`. Never starts a daemon; loads the protocol only when a socket file exists. Runs in the CLI
// process.
import { existsSync } from 'node:fs';
import type { Result } from '../../common/result.js';
import { controlSocketPath } from '../daemon/control-socket-path.js';
import type { ControlClient } from '../daemon-client/control-client.js';
import { moriHome } from '../state/mori-home.js';

/** The running supervisor's answer to `ask`, or `offline()` when none answers; `client` names this command in the daemon's log. */
export async function viaRunningDaemon<T>(client: string, ask: (c: ControlClient) => Promise<Result<T>>, offline: () => Promise<Result<T>>, home = moriHome()): Promise<Result<T>> {
  if (!existsSync(controlSocketPath(home))) return offline();
  const { ControlClient } = await import('../daemon-client/control-client.js');
  const c = await ControlClient.connect(home, { client: `${client} (pid ${process.pid})` });
  if (!c.ok) return offline();
  try {
    return await ask(c.value);
  } finally {
    c.value.close();
  }
}
