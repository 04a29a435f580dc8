// Where the control socket of a Mori home lives, and whether something answers on it: the one test
// of "a daemon runs" (never a pid file alone, DESIGN.md §12). Small on purpose: `mori ls` loads it
// without the supervisor. Any Node process.
import net from 'node:net';
import path from 'node:path';

export const CONTROL_SOCKET = 'mori.sock';

export const controlSocketPath = (home: string): string => path.join(home, CONTROL_SOCKET);

/** Whether something accepts a connection on the socket file. */
export function socketAnswers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = net.connect(file);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}
