// The session terminals (DESIGN.md §6, §13): one @xterm/xterm per session, created on first view and
// kept (parked hidden) when the person switches away, so switching back shows its state at once.
// Each attach starts from a reset and the daemon's snapshot (which carries the screen and the
// terminal modes), then live output batched into one write per animation frame. Typing goes to the
// agent; the size follows the pane. DOM renderer (xterm's default), no WebGL. Runs in the renderer.
import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { Terminal, type ITheme } from '@xterm/xterm';
import type { AttachedTerminal, MoriApi } from '../common/mori-api.js';

/** Scrollback kept per terminal: enough to read back a long turn, bounded for many sessions. */
const SCROLLBACK_LINES = 5_000;

const DARK: ITheme = { background: '#16181d', foreground: '#d7dae0', cursor: '#d7dae0', selectionBackground: '#3b4252' };
const LIGHT: ITheme = { background: '#fbfbfa', foreground: '#1f2328', cursor: '#1f2328', selectionBackground: '#c8d7f0' };

export const terminalTheme = (dark: boolean): ITheme => (dark ? DARK : LIGHT);

class SessionTerminal {
  readonly element: HTMLDivElement;
  readonly term: Terminal;
  readonly fit = new FitAddon();
  readonly search = new SearchAddon();
  private attached: AttachedTerminal | null = null;
  private attaching = false;
  private pending: string[] = [];
  private pendingChars = 0;
  private owed = 0;
  private frame: number | null = null;
  /** Why the last attachment ended, while it is not attached. */
  ended: string | null = null;

  constructor(
    private readonly api: MoriApi,
    readonly sessionId: string,
    stage: HTMLElement,
    dark: boolean,
    private readonly onChange: () => void,
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
      fontSize: 13,
      allowProposedApi: true,
    });
    this.term.loadAddon(this.fit);
    this.term.loadAddon(this.search);
    this.term.loadAddon(
      new WebLinksAddon((event, uri) => {
        event.preventDefault();
        window.open(uri, '_blank', 'noopener,noreferrer');
      }),
    );
    this.term.open(this.element);
    this.term.onData((d) => this.attached?.input(d));
    // Copy on select, as terminals on Linux do; the clipboard may refuse (no permission): no harm.
    this.term.onSelectionChange(() => {
      const text = this.term.getSelection();
      if (text) navigator.clipboard?.writeText(text).catch(() => undefined);
    });
  }

  get isAttached(): boolean {
    return this.attached !== null;
  }

  /** Attaches when not attached (first view, or after the agent ended and started again). */
  async attach(): Promise<void> {
    if (this.attached || this.attaching) return;
    this.attaching = true;
    this.owed = 0;
    this.fitNow();
    const r = await this.api.attach(this.sessionId, { cols: this.term.cols, rows: this.term.rows }, {
      acksOutput: true,
      snapshot: (data) => {
        // Output queued before this snapshot is in it; acknowledged, not written twice.
        const dropped = this.pendingChars;
        this.pending = [];
        this.pendingChars = 0;
        if (dropped > 0) this.ack(dropped);
        this.term.reset();
        this.term.write(data);
      },
      output: (data) => this.queue(data),
      ended: (reason) => {
        this.attached = null;
        this.ended = reason;
        this.onChange();
      },
    });
    this.attaching = false;
    if (!r.ok) {
      this.ended = r.message;
      this.onChange();
      return;
    }
    this.attached = r.value;
    this.ended = null;
    if (this.owed > 0) r.value.ack(this.owed);
    this.owed = 0;
    this.onChange();
  }

  /**
   * Output is gathered and written once per animation frame: a flood costs one parse per frame. It
   * is acknowledged once xterm has parsed it, so the daemon holds the agent back while this page is
   * behind. In a hidden page (no animation frames) it is written at once, so the agent is not held.
   */
  private queue(data: string): void {
    this.pending.push(data);
    this.pendingChars += data.length;
    if (document.hidden) return this.flush();
    if (this.frame === null) this.frame = requestAnimationFrame(() => this.flush());
  }

  private flush(): void {
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.frame = null;
    if (this.pending.length === 0) return;
    const chunk = this.pending.join('');
    const chars = this.pendingChars;
    this.pending = [];
    this.pendingChars = 0;
    this.term.write(chunk, () => this.ack(chars));
  }

  /** Frames may arrive before the attach answer does: their acknowledgement waits for it. */
  private ack(chars: number): void {
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
    if (visible) {
      this.fitNow();
      this.term.focus();
    }
  }

  dispose(): void {
    this.attached?.detach();
    this.term.dispose();
    this.element.remove();
  }
}

/** Every terminal the window opened, in one stage element the terminal pane hosts. */
export class TerminalPool {
  readonly stage: HTMLDivElement;
  private readonly terminals = new Map<string, SessionTerminal>();
  private visible: string | null = null;
  private dark: boolean;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly api: MoriApi) {
    this.stage = document.createElement('div');
    this.stage.className = 'terminal-stage';
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    this.dark = media.matches;
    media.addEventListener('change', (e) => {
      this.dark = e.matches;
      for (const t of this.terminals.values()) t.term.options.theme = terminalTheme(this.dark);
    });
    new ResizeObserver(() => this.current()?.fitNow()).observe(this.stage);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed = (): void => {
    for (const l of [...this.listeners]) l();
  };

  current(): SessionTerminal | null {
    return this.visible === null ? null : (this.terminals.get(this.visible) ?? null);
  }

  /** Shows this session's terminal (creating and attaching it the first time), parking the others. */
  show(sessionId: string | null): void {
    if (sessionId !== null && !this.terminals.has(sessionId)) {
      this.terminals.set(sessionId, new SessionTerminal(this.api, sessionId, this.stage, this.dark, this.changed));
    }
    for (const [id, t] of this.terminals) if (id !== sessionId) t.show(false);
    this.visible = sessionId;
    const t = this.current();
    if (t) {
      t.show(true);
      void t.attach();
    }
  }

  /** The session's agent (re)started: a terminal whose attachment ended attaches again. */
  reattach(sessionId: string): void {
    const t = this.terminals.get(sessionId);
    if (t && !t.isAttached) void t.attach();
  }

  status(sessionId: string): { attached: boolean; ended: string | null } | null {
    const t = this.terminals.get(sessionId);
    return t ? { attached: t.isAttached, ended: t.ended } : null;
  }

  find(text: string, backwards: boolean): boolean {
    const t = this.current();
    if (!t || !text) return false;
    return backwards ? t.search.findPrevious(text) : t.search.findNext(text);
  }

  forget(sessionId: string): void {
    this.terminals.get(sessionId)?.dispose();
    this.terminals.delete(sessionId);
  }
}
