// The supervisor's event stream (DESIGN.md §9): listeners subscribe, events go to each in turn. A
// listener that throws is reported and the others still hear the event: a broken subscriber (a UI,
// a socket client) never breaks supervision. Runs in the supervisor's process.
import type { SupervisorEvent } from '../../../common/events.js';

export class EventBus {
  private readonly listeners = new Set<(e: SupervisorEvent) => void>();

  on(listener: (e: SupervisorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(e: SupervisorEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch (err) {
        process.stderr.write(`mori: an event listener failed on ${e.type}: ${String(err)}\n`);
      }
    }
  }
}
