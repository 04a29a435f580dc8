// One session's terminal in the window (DESIGN.md §6, §13): an @xterm/xterm with its addons and its
// attachment. Each attach starts from a reset and the daemon's snapshot (the screen and the terminal
// modes), then live output batched into one write per animation frame. Only a view the person can
// see holds its agent back (acknowledging output once parsed); otherwise output is acknowledged as it
// arrives and the daemon is told, so it never waits for it and, once it is far behind, sends it
// nothing until a snapshot when shown again; a view whose unparsed backlog passes a bound lets go of
// its attachment and attaches again (reset + snapshot) when next shown. Typing goes to the agent
// (keys typed while the terminal attaches go once it is attached), or is reported as not sent. A
// session whose agent is not running shows the end of its transcript: the screen it left.
// Runs in the renderer.
import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal, type IDisposable } from '@xterm/xterm';
import type { AttachedTerminal, MoriApi } from '../../common/mori-api.js';
import { AckLedger, type Receipt } from './ack-ledger.js';
import { terminalTheme } from './terminal-theme.js';
import { onScreenReaderMode, onTerminalFontSize, screenReaderMode, terminalFontSize } from '../ui/window-prefs.js';

/** Scrollback kept per terminal: enough to read back a long turn, bounded for the pool's few terminals. */
const SCROLLBACK_LINES = 5_000;
/**
 * Output a view that is not holding its agent back may have written and not yet parsed (a throttled
 * background page parses late): past this (2 MB of text, a few seconds of an agent's flood) it lets
 * go and resyncs from the snapshot instead of queueing without bound.
 */
export const UNHELD_BACKLOG_CHARS = 2_000_000;
/**
 * Typing kept while the terminal attaches (a click and keys right after showing a session): a few
 * lines' worth goes out once attached; more than this is not a person typing and is reported unsent.
 */
const TYPED_WHILE_ATTACHING_CHARS = 4_096;

/**
 * Transcript read back into a terminal whose agent is not running: a few screens of a busy TUI's
 * redraws (each a few KB) or hundreds of lines of plain output, and quick for xterm to parse.
 */
const LAST_OUTPUT_BYTES = 64 * 1024;

/**
 * A transcript's end as written to a fresh terminal: from its first line break when it does not reach
 * the start (a cut may fall inside an escape sequence or a character), with any colours reset after.
 */
export function lastOutputText(data: string, reachesStart: boolean): string {
  const from = reachesStart ? 0 : data.indexOf('\n') + 1;
  return data.slice(from) + '\x1b[0m';
}

export interface SessionTerminalHooks {
  /** Attached, ended, or resynced: the pane redraws its status line. */
  changed(): void;
  /** The person typed while no attachment could take it: it was not sent. */
  inputLost(sessionId: string): void;
  /** A link in the output was clicked (renderer/ui/links.ts opens it, http and https only). */
  openLink(url: string): void;
}

export class SessionTerminal {
  readonly element: HTMLDivElement;
  readonly term: Terminal;
  readonly search = new SearchAddon();
  private readonly fit = new FitAddon();
  private readonly listeners: IDisposable[] = [];
  private readonly ledger = new AckLedger();
  private attached: AttachedTerminal | null = null;
  private attaching = false;
  private pending: { data: string; receipt: Receipt }[] = [];
  /** What the person typed while the attach was on its way: sent once attached. */
  private typedEarly = '';
  private unparsed = 0;
  private owed = 0;
  private frame: number | null = null;
  private disposed = false;
  /** Bumped by every attach and let-go: callbacks of an attachment let go of are ignored. */
  private generation = 0;
  /** The attachment was let go (backlog, or the page froze): attach again when shown. */
  stale = false;
  /** Why the last attachment ended, while it is not attached. */
  ended: string | null = null;
  /** The last search's matches: which one is shown (-1: past the addon's count limit) of how many; null before any. */
  found: { index: number; count: number } | null = null;

  constructor(
    private readonly api: MoriApi,
    readonly sessionId: string,
    stage: HTMLElement,
    dark: boolean,
    private readonly hooks: SessionTerminalHooks,
  ) {
    this.element = document.createElement('div');
    this.element.className = 'terminal-host';
    this.element.dataset['session'] = sessionId;
    this.element.hidden = true;
    stage.appendChild(this.element);
    this.term = new Terminal({
      scrollback: SCROLLBACK_LINES,
      theme: terminalTheme(dark),
      fontFamily: 'ui-monospace, "SF Mono", "DejaVu Sans Mono", Menlo, Consolas, monospace',
      fontSize: terminalFontSize(),
      allowProposedApi: true,
      screenReaderMode: screenReaderMode(),
    });
    this.term.loadAddon(this.fit);
    this.term.loadAddon(this.search);
    this.term.loadAddon(
      new WebLinksAddon((event, uri) => {
        event.preventDefault();
        this.hooks.openLink(uri);
      }),
    );
    this.term.open(this.element);
    const offScreenReader = onScreenReaderMode((on) => (this.term.options.screenReaderMode = on));
    // A new size changes how many columns and rows fit: the agent is told the new size.
    const offFontSize = onTerminalFontSize((size) => {
      this.term.options.fontSize = size;
      this.fitNow();
    });
    this.listeners.push(
      { dispose: offScreenReader },
      // Counted only with decorations on (the addon highlights each match to count it).
      this.search.onDidChangeResults((r) => {
        this.found = { index: r.resultIndex, count: r.resultCount };
        this.hooks.changed();
      }),
      { dispose: offFontSize },
      this.term.onData((d) => {
        if (this.attached) this.attached.input(d);
        else if (this.attaching && this.typedEarly.length + d.length <= TYPED_WHILE_ATTACHING_CHARS) this.typedEarly += d;
        else this.hooks.inputLost(this.sessionId);
      }),
      // Copy on select, as terminals on Linux do; the clipboard may refuse (no permission): no harm.
      this.term.onSelectionChange(() => {
        const text = this.term.getSelection();
        if (text) navigator.clipboard?.writeText(text).catch(() => undefined);
      }),
    );
  }

  get isAttached(): boolean {
    return this.attached !== null;
  }

  /** Whether this view may hold its agent back: only while the person can see it. */
  setHolding(holding: boolean): void {
    if (holding === this.ledger.isHolding) return;
    if (holding) this.ledger.hold();
    else this.ack(this.ledger.release());
    // The daemon is told too: it never waits for a hidden view, and catches it up when shown again.
    this.attached?.hold(holding);
  }

  /** Attaches when not attached (first view, a resync, the agent started again, the daemon is back). */
  async attach(): Promise<void> {
    if (this.attached || this.attaching || this.disposed) return;
    this.attaching = true;
    const gen = ++this.generation;
    this.owed = 0;
    this.ledger.reset();
    this.fitNow();
    const heldAtAttach = this.ledger.isHolding;
    const r = await this.api.attach(this.sessionId, { cols: this.term.cols, rows: this.term.rows }, {
      acksOutput: true,
      holding: heldAtAttach,
      snapshot: (data) => {
        if (gen !== this.generation) return;
        // Output queued before this snapshot is in it: acknowledged, not written twice.
        for (const p of this.pending.splice(0)) this.ack(this.ledger.done(p.receipt));
        this.term.reset();
        this.term.write(data);
      },
      output: (data) => {
        if (gen === this.generation) this.queue(data);
      },
      ended: (reason) => {
        if (gen !== this.generation) return;
        this.attached = null;
        this.ended = reason;
        this.hooks.changed();
      },
    });
    this.attaching = false;
    const typed = this.typedEarly;
    this.typedEarly = '';
    if (!r.ok) {
      if (typed) this.hooks.inputLost(this.sessionId);
      this.ended = r.message;
      this.hooks.changed();
      // No agent to attach to (it crashed, stopped, waits to restart): the screen it left, from its transcript.
      if (r.code === 'failed' || r.code === 'not-running') void this.showLastOutput(gen);
      return;
    }
    if (this.disposed || gen !== this.generation) {
      if (typed) this.hooks.inputLost(this.sessionId);
      r.value.detach();
      // A resync asked for while this attach was on its way: it attaches now.
      if (!this.disposed && !this.stale) void this.attach();
      return;
    }
    this.attached = r.value;
    this.ended = null;
    // Shown or hidden while the attach was on its way: the daemon hears the view as it is now.
    if (this.ledger.isHolding !== heldAtAttach) r.value.hold(this.ledger.isHolding);
    if (typed) r.value.input(typed);
    if (this.owed > 0) r.value.ack(this.owed);
    this.owed = 0;
    this.hooks.changed();
  }

  /**
   * The end of the session's transcript written to a reset terminal: what its agent showed last, as
   * it showed it (colours, its last screen). Not when an attach or a let-go came meanwhile.
   */
  private async showLastOutput(gen: number): Promise<void> {
    const r = await this.api.call('transcript.read', { session: this.sessionId, maxBytes: LAST_OUTPUT_BYTES });
    if (!r.ok || gen !== this.generation || this.attached || this.disposed) return;
    this.term.reset();
    this.term.write(lastOutputText(r.value.data, r.value.bytes >= r.value.totalBytes));
  }

  /** Lets go of the attachment without a word: the view attaches again (reset + snapshot) when shown. */
  letGo(): void {
    this.stale = true;
    this.generation++;
    const a = this.attached;
    this.attached = null;
    this.ended = null;
    a?.detach();
    this.ledger.reset();
    this.pending = [];
  }

  /** Attaches again after a let-go or a lost attachment. */
  resync(): void {
    this.stale = false;
    void this.attach();
  }

  /**
   * Output is gathered and written once per animation frame: a flood costs one parse per frame. A
   * holding view acknowledges it once xterm has parsed it, so the daemon slows the agent while the
   * person's view is behind; any other view acknowledged it on arrival. In a hidden page (no frames)
   * it is written at once.
   */
  private queue(data: string): void {
    const { receipt, ackNow } = this.ledger.received(data.length);
    if (ackNow > 0) this.ack(ackNow);
    this.pending.push({ data, receipt });
    if (!this.ledger.isHolding && this.unparsed > UNHELD_BACKLOG_CHARS) return this.letGo();
    if (document.hidden) return this.flush();
    if (this.frame === null) this.frame = requestAnimationFrame(() => this.flush());
  }

  private flush(): void {
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.frame = null;
    if (this.pending.length === 0 || this.disposed) return;
    const batch = this.pending;
    this.pending = [];
    let chars = 0;
    for (const p of batch) chars += p.data.length;
    this.unparsed += chars;
    this.term.write(batch.map((p) => p.data).join(''), () => {
      this.unparsed -= chars;
      let n = 0;
      for (const p of batch) n += this.ledger.done(p.receipt);
      this.ack(n);
    });
  }

  /** Frames may arrive before the attach answer does: their acknowledgement waits for it. */
  private ack(chars: number): void {
    if (chars <= 0) return;
    if (this.attached) this.attached.ack(chars);
    else this.owed += chars;
  }

  fitNow(): void {
    if (this.element.hidden || this.element.clientWidth === 0) return;
    const before = `${this.term.cols}x${this.term.rows}`;
    try {
      this.fit.fit();
    } catch {
      return;
    }
    if (`${this.term.cols}x${this.term.rows}` !== before) this.attached?.resize(this.term.cols, this.term.rows);
  }

  show(visible: boolean): void {
    this.element.hidden = !visible;
    // Showing never takes the keyboard: focus enters the terminal only when the person asks (a click, or Enter).
    if (visible) this.fitNow();
  }

  focus(): void {
    this.term.focus();
  }

  /** The screen's last `n` lines with text, as plain text (what the agent shows now). */
  lastLines(n: number): string[] {
    const b = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = b.baseY; y < b.baseY + this.term.rows; y++) lines.push(b.getLine(y)?.translateToString(true) ?? '');
    while (lines.length > 0 && (lines[lines.length - 1] ?? '').trim() === '') lines.pop();
    return lines.slice(-n);
  }

  /** Everything it holds goes: the attachment, the listeners, the addons (xterm disposes those it loaded), the element. */
  dispose(): void {
    this.disposed = true;
    this.generation++;
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.frame = null;
    this.pending = [];
    const a = this.attached;
    this.attached = null;
    a?.detach();
    for (const l of this.listeners.splice(0)) l.dispose();
    this.term.dispose();
    this.element.remove();
  }
}
