// What one terminal view still owes the daemon in output acknowledgements (DESIGN.md §6 flow
// control). A view that holds its agent back acknowledges output once xterm has parsed it; a view
// that must not (hidden, or in a hidden page) acknowledges on arrival, and on letting go settles at
// once everything it still held, so no debt of a view nobody looks at pauses an agent. Pure TypeScript.

/** One piece of output taken in: settled once acknowledged (by parsing, or by letting go). */
export interface Receipt {
  readonly chars: number;
  settled: boolean;
}

export class AckLedger {
  private readonly open = new Set<Receipt>();
  private holding = true;

  /** Whether output is acknowledged only once parsed (the view may slow its agent down). */
  get isHolding(): boolean {
    return this.holding;
  }

  /** Chars taken in and not yet acknowledged. */
  get outstanding(): number {
    let n = 0;
    for (const r of this.open) n += r.chars;
    return n;
  }

  /** Output arrived: its receipt, and how many chars to acknowledge now (all of it when not holding). */
  received(chars: number): { receipt: Receipt; ackNow: number } {
    const receipt: Receipt = { chars, settled: !this.holding };
    if (this.holding) this.open.add(receipt);
    return { receipt, ackNow: this.holding ? 0 : chars };
  }

  /** The output of `receipt` was parsed (or dropped for a snapshot): chars to acknowledge now. */
  done(receipt: Receipt): number {
    if (receipt.settled) return 0;
    receipt.settled = true;
    this.open.delete(receipt);
    return receipt.chars;
  }

  /** Stops holding: everything still owed is acknowledged now (the returned chars), and later output on arrival. */
  release(): number {
    this.holding = false;
    let n = 0;
    for (const r of this.open) {
      r.settled = true;
      n += r.chars;
    }
    this.open.clear();
    return n;
  }

  /** Holds again: output from now on is acknowledged once parsed. */
  hold(): void {
    this.holding = true;
  }

  /** A new attachment starts owing nothing. */
  reset(): void {
    for (const r of this.open) r.settled = true;
    this.open.clear();
  }
}
