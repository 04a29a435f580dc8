// What happened before this daemon run (DESIGN.md §12, "History at start"): the last events of the
// daemon log (daemon.log, one supervisor event per line) read back when the daemon starts, so a window
// opened in the morning shows the night even when the daemon was restarted or the machine rebooted in
// between, and the events of this run's own start-up (sessions resumed after a reboot), which come
// before the event log exists. Lines that are not an event (cut by a crash, edited) are skipped.
// Runs in the daemon.
import path from 'node:path';
import { DaemonEvent } from '../../common/ipc.js';
import { isAgentFileError, readAgentFileTailSync } from '../os/agent-file.js';
import { DAEMON_LOG, logDir } from './daemon-log.js';

/** How much of the log's end is read: a few thousand events of a few hundred bytes each, read in milliseconds. */
const TAIL_BYTES = 1024 * 1024;

/** The last `max` events the daemon log holds, oldest first; none when there is no log or it cannot be read. */
export function earlierEvents(home: string, max: number): DaemonEvent[] {
  const bytes = readAgentFileTailSync(path.join(logDir(home), DAEMON_LOG), TAIL_BYTES);
  if (isAgentFileError(bytes)) return [];
  const lines = bytes.toString('utf8').split('\n');
  // A tail cut mid-file starts inside a line: that first piece is not an event.
  if (bytes.length === TAIL_BYTES) lines.shift();
  const events: DaemonEvent[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = DaemonEvent.safeParse(json);
    if (parsed.success) events.push(parsed.data);
  }
  return events.slice(-max);
}
