// Flow control decisions for one terminal's attached views (DESIGN.md §6): pure bookkeeping of
// unacknowledged characters per attachment, and whether the pty should be paused. Runs in the
// supervisor's process; the terminal applies the decisions to its backend.

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

/**
 * Unacknowledged characters per attachment. With no attachment nothing is ever owed (the mirror
 * takes the output and acknowledges it at once), so a program never blocks when nobody looks.
 * Every attach starts from zero, and a detach forgets the attachment's debt.
 */
export class FlowControl {
  private readonly unacked = new Map<string, number>();
  private paused = false;

  constructor(
    private readonly high = FlowControlConstants.HIGH_WATERMARK_CHARS,
    private readonly low = FlowControlConstants.LOW_WATERMARK_CHARS,
  ) {}

  get isPaused(): boolean {
    return this.paused;
  }

  /** Largest lag over all attachments (0 with none). */
  get maxUnacked(): number {
    let max = 0;
    for (const n of this.unacked.values()) max = Math.max(max, n);
    return max;
  }

  attach(id: string): 'resume' | null {
    this.unacked.set(id, 0);
    return this.decide() === 'resume' ? 'resume' : null;
  }

  detach(id: string): 'resume' | null {
    this.unacked.delete(id);
    return this.decide() === 'resume' ? 'resume' : null;
  }

  /** Output of `chars` characters went to every attachment. */
  sent(chars: number): 'pause' | null {
    for (const [id, n] of this.unacked) this.unacked.set(id, n + chars);
    return this.decide() === 'pause' ? 'pause' : null;
  }

  /** An attachment rendered `chars` characters. Unknown ids (detached meanwhile) are ignored. */
  ack(id: string, chars: number): 'resume' | null {
    const n = this.unacked.get(id);
    if (n === undefined || !(chars > 0)) return null;
    this.unacked.set(id, Math.max(0, n - chars));
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
