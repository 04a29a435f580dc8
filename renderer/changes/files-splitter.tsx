// The splitter between the Changes tab's changed files and its checkpoints (WAI-ARIA window
// splitter): a focusable horizontal separator whose value is the files list's height in pixels.
// ↑/↓ resize by a step (Shift: a bigger one), Home and End go to the lowest and the highest; the
// mouse drags it. The height is kept in this browser across reloads (changes-prefs.ts). Runs in the
// renderer.
import { useRef } from 'preact/hooks';
import { clampHeight, HEIGHT_BIG_STEP, HEIGHT_STEP, MAX_HEIGHT, MIN_HEIGHT, storeHeight } from './changes-prefs.js';

export function FilesSplitter(props: { height: number; onHeight: (px: number) => void }) {
  const { height } = props;
  const drag = useRef<{ y: number; height: number } | null>(null);
  const resize = (px: number, keep: boolean): void => {
    props.onHeight(clampHeight(px));
    if (keep) storeHeight(px);
  };
  const onKey = (e: KeyboardEvent): void => {
    const step = e.shiftKey ? HEIGHT_BIG_STEP : HEIGHT_STEP;
    const to: Record<string, number> = { ArrowUp: height - step, ArrowDown: height + step, Home: MIN_HEIGHT, End: MAX_HEIGHT };
    const next = to[e.key];
    if (next === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    resize(next, true);
  };
  const onDown = (e: PointerEvent): void => {
    if (e.button !== 0) return;
    e.preventDefault();
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    drag.current = { y: e.clientY, height };
  };
  const onMove = (e: PointerEvent): void => {
    if (drag.current) resize(drag.current.height + e.clientY - drag.current.y, false);
  };
  const onUp = (e: PointerEvent): void => {
    if (!drag.current) return;
    resize(drag.current.height + e.clientY - drag.current.y, true);
    drag.current = null;
  };
  return (
    <div
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the changed files list"
      aria-valuenow={height}
      aria-valuemin={MIN_HEIGHT}
      aria-valuemax={MAX_HEIGHT}
      aria-valuetext={`${height} pixels high`}
      tabIndex={0}
      class="changes-splitter"
      onKeyDown={onKey}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={onUp}
    />
  );
}
