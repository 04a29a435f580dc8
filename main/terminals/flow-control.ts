// Flow control decisions for one terminal's attached views (DESIGN.md §6): pure bookkeeping of
// unacknowledged characters per attachment, whether the pty should be paused, and which views are too
// far behind to be sent output at all. Runs in the supervisor's process; the terminal applies the
// decisions to its backend and its views.

/** Watermarks and ack cadence, in UTF-16 characters as delivered to views. */
export const FlowControlConstants = {
  /**
   * Pause the program once a view lags this far behind: ~100 K chars is a few screens of a busy
   * agent, enough to keep throughput up while bounding what sits in IPC queues and view buffers.
   */
  HIGH_WATERMARK_CHARS: 100_000,
  /**
   * Resume once the lag is back below this: far enough under the high mark that we do not
   * flap between pause and resume on every chunk.
   */
  LOW_WATERMARK_CHARS: 5_000,
  /** Views should acknowledge in steps of about this much: small against the high mark, so acks keep up. */
  CHAR_COUNT_ACK_SIZE: 5_000,
} as const;

interface Account {
  unacked: number;
  /** Whether this view may slow the program down (the person is looking at it). */
  holding: boolean;
  /** A view not holding that fell past the high mark: sent nothing until it holds again. */
  behind: boolean;
}

/**
 * Unacknowledged characters per attachment. With no attachment nothing is ever owed (the mirror
 * takes the output and acknowledges it at once), so a program never blocks when nobody looks. Only
 * holding attachments can pause the program; one that does not hold (a hidden view) and lags past the
 * high mark is marked behind instead: it is sent nothing more, and is brought back with a snapshot
 * when it holds again. Every attach starts from zero, and a detach forgets the attachment's debt.
 */
export class FlowControl {
  private readonly accounts = new Map<string, Account>();
  private paused = false;

  constructor(
    private readonly high = FlowControlConstants.HIGH_WATERMARK_CHARS,
    private readonly low = FlowControlConstants.LOW_WATERMARK_CHARS,
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  /** Largest lag over the holding attachments (0 with none). */
  get maxUnacked(): number {
    let max = 0;
    for (const a of this.accounts.values()) if (a.holding) max = Math.max(max, a.unacked);
    return max;
  }

  attach(id: string, holding = true): 'resume' | null {
    this.accounts.set(id, { unacked: 0, holding, behind: false });
    return this.decide() === 'resume' ? 'resume' : null;
  }

  detach(id: string): 'resume' | null {
    this.accounts.delete(id);
    return this.decide() === 'resume' ? 'resume' : null;
  }

  /** Whether output should go to this attachment (not when it is behind). */
  sends(id: string): boolean {
    const a = this.accounts.get(id);
    return a !== undefined && !a.behind;
  }

  /**
   * The view now holds its agent back (shown) or not (hidden). `caughtUp` says a view that was
   * behind must be brought up to date (a snapshot) before it gets output again.
   */
  hold(id: string, holding: boolean): { decision: 'pause' | 'resume' | null; caughtUp: boolean } {
    const a = this.accounts.get(id);
    if (!a || a.holding === holding) return { decision: null, caughtUp: false };
    a.holding = holding;
    const caughtUp = holding && a.behind;
    if (caughtUp) {
      // What it was sent before falling behind is still owed; acks on their way settle it.
      a.behind = false;
    }
    return { decision: this.decide(), caughtUp };
  }

  /** Output of `chars` characters went to every attachment that is not behind. */
  sent(chars: number): 'pause' | null {
    for (const a of this.accounts.values()) {
      if (a.behind) continue;
      a.unacked += chars;
      if (!a.holding && a.unacked > this.high) a.behind = true;
    }
    return this.decide() === 'pause' ? 'pause' : null;
  }

  /** An attachment rendered `chars` characters. Unknown ids (detached meanwhile) are ignored. */
  ack(id: string, chars: number): 'resume' | null {
    const a = this.accounts.get(id);
    if (a === undefined || !(chars > 0)) return null;
    a.unacked = Math.max(0, a.unacked - chars);
    return this.decide() === 'resume' ? 'resume' : null;
  }

  private decide(): 'pause' | 'resume' | null {
    const lag = this.maxUnacked;
    if (!this.paused && lag > this.high) {
      this.paused = true;
      return 'pause';
    }
    if (this.paused && lag < this.low) {
      this.paused = false;
      return 'resume';
    }
    return null;
  }
}
