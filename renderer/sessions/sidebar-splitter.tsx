// The splitter between the sidebar and the session (WAI-ARIA window splitter): a focusable separator
// whose value is the sidebar's width in pixels. ←/→ resize by a step (Shift: a bigger one), Home and
// End go to the narrowest and the widest; the mouse drags it. The width is the page's
// `--sidebar-width` and is kept in this browser across reloads. Runs in the renderer.
import { useEffect, useRef, useState } from 'preact/hooks';
import { clampWidth, MAX_WIDTH, MIN_WIDTH, storedWidth, storeWidth, WIDTH_BIG_STEP, WIDTH_STEP } from './sidebar-prefs.js';

const apply = (px: number): void => document.documentElement.style.setProperty('--sidebar-width', `${px}px`);

export function SidebarSplitter() {
  const [width, setWidth] = useState(storedWidth);
  const drag = useRef<{ x: number; width: number } | null>(null);
  useEffect(() => apply(width), [width]);

  const resize = (px: number): void => {
    const w = clampWidth(px);
    setWidth(w);
    storeWidth(w);
  };
  const onKey = (e: KeyboardEvent): void => {
    const step = e.shiftKey ? WIDTH_BIG_STEP : WIDTH_STEP;
    const to: Record<string, number> = { ArrowLeft: width - step, ArrowRight: width + step, Home: MIN_WIDTH, End: MAX_WIDTH };
    const next = to[e.key];
    if (next === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    resize(next);
  };
  const onDown = (e: PointerEvent): void => {
    if (e.button !== 0) return;
    e.preventDefault();
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, width };
  };
  const onMove = (e: PointerEvent): void => {
    if (drag.current) setWidth(clampWidth(drag.current.width + e.clientX - drag.current.x));
  };
  const onUp = (e: PointerEvent): void => {
    if (!drag.current) return;
    resize(drag.current.width + e.clientX - drag.current.x);
    drag.current = null;
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the sessions sidebar"
      aria-valuenow={width}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={MAX_WIDTH}
      aria-valuetext={`${width} pixels wide`}
      tabIndex={0}
      class="sidebar-splitter"
      onKeyDown={onKey}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={onUp}
    />
  );
}
