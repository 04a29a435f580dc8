// Looks at session_state.md each time someone else changed it (daemon-events.ts's state watcher) and
// gives the one notice state-growth.ts decides: a SESSION NOTE in the work log naming the sections
// that grew most, recorded in session.json (stateGrowthNotice) through the supervisor's store so it
// is given once, and cleared once the file is back under the size. The size is settings.json's
// `resume.stateFileNoticeBytes`, read at each look so a change in the settings counts at once. The
// file is the agent's: read through agent-file.ts, up to a cap. Runs in the daemon.
import path from 'node:path';
import { DaemonSettings } from '../../common/daemon-settings.js';
import { readSessionFile, type SessionWrite } from '../state/session-file.js';
import { appendEntry } from '../state/work-log.js';
import { isAgentFileError, readAgentFileRange, statAgentFile } from '../os/agent-file.js';
import { growthStep, growthWords, sectionSizes } from '../supervisor/resume/state-growth.js';
import { readSettings } from './daemon-settings.js';
import { SESSION_STATE } from '../../common/state-files.js';

/** The sections are sized from at most this much of the file: past it, the first 4 MiB show which grew. */
const READ_CAP_BYTES = 4 * 1024 * 1024;

export class StateGrowthWatch {
  /** State dirs being looked at: a burst of changes gives one look, so never two notices. */
  private readonly busy = new Set<string>();

  constructor(private readonly ports: { home: string; write: SessionWrite; now?: () => Date }) {}

  async check(stateDir: string): Promise<void> {
    if (this.busy.has(stateDir)) return;
    this.busy.add(stateDir);
    try {
      await this.look(stateDir);
    } finally {
      this.busy.delete(stateDir);
    }
  }

  private async look(stateDir: string): Promise<void> {
    const file = path.join(stateDir, SESSION_STATE);
    const info = await statAgentFile(file);
    if (isAgentFileError(info)) return;
    const session = readSessionFile(stateDir);
    if (!session.ok) return;
    const settings = readSettings(this.ports.home);
    const limit = (settings.ok ? settings.value : DaemonSettings.parse({})).resume.stateFileNoticeBytes;
    const step = growthStep(info.size, limit, session.value.stateGrowthNotice !== null);
    if (step.kind === 'none') return;
    if (step.kind === 'rearm') {
      await this.ports.write(stateDir, (s) => ({ ...s, stateGrowthNotice: null }));
      return;
    }
    const read = await readAgentFileRange(file, 0, READ_CAP_BYTES);
    if (isAgentFileError(read)) return;
    const at = (this.ports.now ?? (() => new Date()))();
    const recorded = await this.ports.write(stateDir, (s) => ({ ...s, stateGrowthNotice: { at: at.toISOString(), bytes: info.size } }));
    if (!recorded.ok) return;
    appendEntry(stateDir, [growthWords(info.size, limit, sectionSizes(read.bytes.toString('utf8')))], at);
  }
}
