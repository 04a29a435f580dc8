// Telling the person once when a session's conversation crosses the context share they set
// (DESIGN.md §5 "Usage"): after each turn the agent ends (activity from working), the session's
// usage is read again (the usage book reads only what was appended) and a crossing past
// `usage.contextWarnPercent` becomes one `session.contextOver` event, which the window and the desktop
// notify. Said again only after the share fell back under it (a fresh start, a /clear, a compaction)
// and crossed once more. Runs in the daemon.
import { contextShare, isOver } from '../../common/usage-figures.js';
import type { SessionRecord } from '../../common/session.js';
import type { SessionUsage } from '../../common/usage.js';
import type { SupervisorEvent } from '../../common/events.js';

export interface ContextWatchPorts {
  /** The session's record as it is now, or null when it is gone. */
  record(sessionId: string): SessionRecord | null;
  read(session: SessionRecord): Promise<SessionUsage>;
  /** The share set (0–1), read each time so a change counts at once. */
  warn(): number;
  publish(e: SupervisorEvent): void;
  now(): number;
}

export class ContextWatch {
  /** Sessions past the share when last read. */
  private readonly over = new Set<string>();
  /** Reads under way: a second turn ending meanwhile does not start another. */
  private readonly reading = new Set<string>();

  constructor(private readonly ports: ContextWatchPorts) {}

  /** After every supervisor event: a turn that ended is a moment the share may have changed. */
  heard(e: SupervisorEvent): void {
    // check() catches what it meets; nothing is left to reject.
    if (e.type === 'session.activity' && e.from === 'working') this.check(e.sessionId).catch(() => undefined);
    else if (e.type === 'session.removed') this.over.delete(e.sessionId);
  }

  /** Reads the session's usage and publishes a crossing; resolves when done (tests await it). */
  async check(sessionId: string): Promise<void> {
    if (this.reading.has(sessionId)) return;
    const session = this.ports.record(sessionId);
    if (session === null) return;
    this.reading.add(sessionId);
    try {
      const u = await this.ports.read(session);
      const share = contextShare(u.last);
      const warn = this.ports.warn();
      if (!isOver(share, warn)) {
        // Unknown (no window, no request yet) keeps what was known: only a share under the mark resets.
        if (share !== null) this.over.delete(sessionId);
        return;
      }
      if (this.over.has(sessionId)) return;
      this.over.add(sessionId);
      this.ports.publish({ type: 'session.contextOver', at: this.ports.now(), sessionId, name: session.name, share: share ?? 0, warn, model: u.last?.model ?? null });
    } catch {
      // A record that cannot be read now says nothing; `mori usage` names the problem.
    } finally {
      this.reading.delete(sessionId);
    }
  }
}
