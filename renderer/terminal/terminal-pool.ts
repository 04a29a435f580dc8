// The session terminals of the window (DESIGN.md §6, §13): a bounded pool of live terminals
// (renderer/terminal/session-terminal.ts), least recently shown first out. Showing a session makes its
// terminal the newest (creating and attaching it, from the daemon's snapshot, when it is not in the
// pool); past POOL_SIZE the oldest is disposed, and shown again later it is created afresh from the
// snapshot. Only the terminal on screen, in a visible page, holds its agent back; when the page is
// hidden none does, and when it is frozen every attachment is let go. After the daemon connection
// comes back every terminal attaches again. The terminal code (xterm and its addons, most of the
// window's script) loads when the first terminal is shown, so the sessions list paints without it.
// Runs in the renderer.
import { openLink } from '../ui/links.js';
import type { MoriApi } from '../../common/mori-api.js';
import { Lru } from './lru.js';
import type { SessionTerminal } from './session-terminal.js';
import { terminalTheme } from './terminal-theme.js';
import { isDark, onDarkChange } from '../ui/theme.js';

/**
 * Live terminals kept: switching among the last few sessions shows them at once, and each costs an
 * xterm (5,000 lines of scrollback), a daemon connection and its output; older ones are rebuilt
 * from the snapshot when shown.
 */
export const POOL_SIZE = 4;

type TerminalModule = typeof import('./session-terminal.js');
let terminalModule: Promise<TerminalModule> | null = null;
/** session-terminal.js, loaded once, the first time a terminal is shown. */
function loadTerminals(): Promise<TerminalModule> {
  terminalModule ??= import('./session-terminal.js').catch((err: unknown) => {
    terminalModule = null; // tried again at the next show
    throw err;
  });
  return terminalModule;
}

/**
 * How matches show: every match marked, the current one stronger, both in the scrollbar's ruler
 * (the addon counts matches only with decorations on; it takes #RRGGBB colours, readable on both themes).
 */
const SEARCH_DECORATIONS = {
  matchBackground: '#8a6d1f',
  matchOverviewRuler: '#d4a72c',
  activeMatchBackground: '#d4a72c',
  activeMatchColorOverviewRuler: '#f2cc60',
};

export class TerminalPool {
  readonly stage: HTMLDivElement;
  private readonly terminals = new Map<string, SessionTerminal>();
  private readonly lru: Lru<string>;
  private visible: string | null = null;
  private dark: boolean;
  private readonly listeners = new Set<() => void>();
  private readonly cleanups: (() => void)[] = [];
  /** Sessions the person typed into while their input could not be sent, and when it last happened. */
  private readonly lost = new Map<string, number>();
  /** session-terminal.js once it has loaded; until then a shown session waits for it. */
  private terminalCode: TerminalModule | null = null;
  private disposed = false;

  constructor(
    private readonly api: MoriApi,
    size = POOL_SIZE,
  ) {
    this.lru = new Lru(size);
    this.stage = document.createElement('div');
    this.stage.className = 'terminal-stage';
    this.dark = isDark();
    const offDark = onDarkChange((dark) => {
      this.dark = dark;
      for (const t of this.terminals.values()) t.term.options.theme = terminalTheme(this.dark);
    });
    const resize = new ResizeObserver(() => this.current()?.fitNow());
    resize.observe(this.stage);
    // Visible again: the terminal on screen holds again, and attaches again if it let go meanwhile.
    const onVisibility = (): void => {
      this.applyHolding();
      const t = this.current();
      if (document.visibilityState === 'visible' && t?.stale) t.resync();
    };
    document.addEventListener('visibilitychange', onVisibility);
    // A frozen page runs nothing, so acknowledges nothing: its attachments go, and come back on resume.
    const onFreeze = (): void => {
      for (const t of this.terminals.values()) t.letGo();
    };
    const onResume = (): void => this.current()?.resync();
    document.addEventListener('freeze', onFreeze);
    document.addEventListener('resume', onResume);
    this.cleanups.push(
      offDark,
      () => resize.disconnect(),
      () => document.removeEventListener('visibilitychange', onVisibility),
      () => document.removeEventListener('freeze', onFreeze),
      () => document.removeEventListener('resume', onResume),
    );
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

  /** Sessions with a live terminal, least recently shown first. */
  live(): string[] {
    return this.lru.keys();
  }

  /** Shows this session's terminal (creating and attaching it when not live), hiding the others. */
  show(sessionId: string | null): void {
    const code = this.terminalCode;
    if (sessionId !== null && code === null) {
      // Shown once the terminal code is in, unless another session (or none) was shown meanwhile.
      this.visible = sessionId;
      void loadTerminals().then((m) => {
        this.terminalCode = m;
        if (!this.disposed && this.visible === sessionId) this.show(sessionId);
      }, (err: unknown) => console.error('mori: the terminal could not be loaded', err));
      return;
    }
    if (sessionId !== null && code !== null) {
      if (!this.terminals.has(sessionId)) {
        const hooks = { changed: this.changed, inputLost: (id: string) => this.inputLost(id), openLink: (url: string) => openLink(this.api, url) };
        this.terminals.set(sessionId, new code.SessionTerminal(this.api, sessionId, this.stage, this.dark, hooks));
      }
      for (const old of this.lru.use(sessionId)) this.forget(old);
    }
    for (const [id, t] of this.terminals) if (id !== sessionId) t.show(false);
    this.visible = sessionId;
    this.applyHolding();
    const t = this.current();
    if (t) {
      t.show(true);
      if (t.stale) t.resync();
      else void t.attach();
    }
    this.changed();
  }

  /** Only the terminal on screen in a visible page holds its agent back. */
  private applyHolding(): void {
    const pageVisible = document.visibilityState === 'visible';
    for (const [id, t] of this.terminals) t.setHolding(pageVisible && id === this.visible);
  }

  /** The session's agent (re)started: a terminal whose attachment ended attaches again. */
  reattach(sessionId: string): void {
    const t = this.terminals.get(sessionId);
    if (t && !t.isAttached && !t.stale) void t.attach();
  }

  /** The daemon connection is back: every live terminal attaches again (reset + snapshot). */
  reconnected(): void {
    for (const t of this.terminals.values()) if (!t.isAttached) t.resync();
  }

  private inputLost(sessionId: string): void {
    this.lost.set(sessionId, Date.now());
    this.changed();
  }

  /** Whether any typing was lost at or after `since` (epoch ms). */
  inputLostSince(since: number): boolean {
    for (const at of this.lost.values()) if (at >= since) return true;
    return false;
  }

  /** Whether the person typed into this session while nothing could take it (cleared by `clearLost`). */
  inputWasLost(sessionId: string): boolean {
    return this.lost.has(sessionId);
  }

  clearLost(sessionId: string): void {
    if (this.lost.delete(sessionId)) this.changed();
  }

  status(sessionId: string): { attached: boolean; ended: string | null } | null {
    const t = this.terminals.get(sessionId);
    return t ? { attached: t.isAttached, ended: t.ended } : null;
  }

  /** The keyboard goes to the shown terminal: what is typed next reaches its agent. */
  focus(): void {
    this.current()?.focus();
  }

  /** The last lines with text on this session's screen, when its terminal is live; else none. */
  lastLines(sessionId: string, n: number): string[] {
    return this.terminals.get(sessionId)?.lastLines(n) ?? [];
  }

  /** Finds the next (or previous) match in the shown terminal, every match highlighted and counted (searchCount). */
  find(text: string, backwards: boolean): boolean {
    const t = this.current();
    if (!t || !text) return false;
    const opts = { decorations: SEARCH_DECORATIONS };
    return backwards ? t.search.findPrevious(text, opts) : t.search.findNext(text, opts);
  }

  /** The shown terminal's last search: which match (1-based; 0 when past the addon's count limit) of how many. */
  searchCount(): { at: number; of: number } | null {
    const f = this.current()?.found;
    return f ? { at: f.index + 1, of: f.count } : null;
  }

  /** The search is over: its highlights and count go. */
  endSearch(): void {
    const t = this.current();
    if (!t) return;
    t.search.clearDecorations();
    t.found = null;
    this.changed();
  }

  forget(sessionId: string): void {
    this.terminals.get(sessionId)?.dispose();
    this.terminals.delete(sessionId);
    this.lru.delete(sessionId);
    if (this.visible === sessionId) this.visible = null;
  }

  dispose(): void {
    this.disposed = true;
    for (const id of [...this.terminals.keys()]) this.forget(id);
    for (const c of this.cleanups.splice(0)) c();
    this.stage.remove();
  }
}
