// The terminal tab: hosts the terminal pool's stage (the live xterms, all but the shown one hidden), a
// search box (Mod+F; Enter: next, Shift+Enter: previous; "3 of 12" matches, or "No match"; Escape ends the
// search and returns to the terminal), a line saying when the agent is not attached, and
// one saying that typing was not sent (while nothing could take it). The keyboard enters the terminal
// on a click or when asked (`focusRequest` changes: Enter in the list or on the tab); F6 leaves it.
// On a phone (styles.css's narrow layout) the keys' hint gives way to Smaller and Larger text
// buttons, the terminal's text size as Mod+− and Mod+= set it. Runs in the renderer.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { MoriApi } from '../../common/mori-api.js';
import { TerminalHistory } from './terminal-history.js';
import type { TerminalPool } from './terminal-pool.js';
import { stepTerminalFontSize } from '../ui/window-prefs.js';

/** "3 of 12"; past the addon's count limit the place is unknown: "1000+ matches". */
function countWords(c: { at: number; of: number } | null): string {
  if (!c || c.of === 0) return '';
  return c.at === 0 ? `${c.of}+ matches` : `${c.at} of ${c.of}`;
}

export function TerminalPane(props: { api: MoriApi; pool: TerminalPool; sessionId: string; visible: boolean; focusRequest: number; searchRequest: number }) {
  const host = useRef<HTMLDivElement>(null);
  const [query, setQuery] = useState('');
  const [history, setHistory] = useState(false);
  /** The last search found nothing (cleared as the query changes). */
  const [noMatch, setNoMatch] = useState(false);
  const search = useRef<HTMLInputElement>(null);
  const [, setTick] = useState(0);
  useEffect(() => {
    host.current?.appendChild(props.pool.stage);
    return props.pool.onChange(() => setTick((n) => n + 1));
  }, [props.pool]);
  useEffect(() => {
    if (props.visible) props.pool.show(props.sessionId);
  }, [props.pool, props.sessionId, props.visible]);
  // After the terminal is shown (the effect above runs first), so the keyboard lands in the right one.
  useEffect(() => {
    if (props.visible && props.focusRequest > 0) props.pool.focus();
  }, [props.pool, props.focusRequest, props.visible]);
  useEffect(() => {
    if (props.visible && props.searchRequest > 0) search.current?.select();
  }, [props.searchRequest, props.visible]);
  const status = props.pool.status(props.sessionId);
  return (
    <div class="terminal-pane" hidden={!props.visible}>
      <div class="terminal-bar">
        <input
          type="search"
          aria-label="Search the terminal"
          placeholder="Search"
          ref={search}
          value={query}
          onInput={(e) => {
            setQuery((e.target as HTMLInputElement).value);
            setNoMatch(false);
            props.pool.endSearch();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') setNoMatch(query !== '' && !props.pool.find(query, e.shiftKey));
            if (e.key === 'Escape') {
              e.preventDefault();
              setNoMatch(false);
              props.pool.endSearch();
              props.pool.focus();
            }
          }}
        />
        <span class="search-count" role="status">
          {noMatch ? 'No match' : countWords(props.pool.searchCount())}
        </span>
        <button type="button" aria-pressed={history} onClick={() => setHistory((h) => !h)}>
          Earlier output
        </button>
        <span class="terminal-text-size">
          <button type="button" aria-label="Smaller terminal text" onClick={() => stepTerminalFontSize(-1)}>
            A−
          </button>
          <button type="button" aria-label="Larger terminal text" onClick={() => stepTerminalFontSize(1)}>
            A+
          </button>
        </span>
        {/* Not attached, the keys that type into the terminal say nothing: the reason takes their place. */}
        {status && !status.attached && status.ended ? (
          <span class="muted">Not attached: {status.ended}</span>
        ) : (
          <span class="muted terminal-keys">Enter in the list types here · F6 leaves the terminal · ? shortcuts</span>
        )}
        {props.pool.inputWasLost(props.sessionId) ? (
          <span class="input-lost" role="status">
            Not sent: you typed while this terminal was not connected.{' '}
            <button type="button" class="link" onClick={() => props.pool.clearLost(props.sessionId)}>
              Dismiss
            </button>
          </span>
        ) : null}
      </div>
      {history ? <TerminalHistory key={props.sessionId} api={props.api} sessionId={props.sessionId} /> : null}
      <div role="region" aria-label="Terminal" class="terminal-region" ref={host} />
    </div>
  );
}
