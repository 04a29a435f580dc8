// A modal dialog on the platform's <dialog>: focus moves in and stays, Escape closes it, it is a
// `dialog` named by its title for assistive technology, and when it goes focus returns to what had
// it before (the button that opened it). Runs in the renderer.
import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

export function Modal(props: { title: string; onClose: () => void; children: ComponentChildren; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  // The opener is read while the dialog first renders: by the time effects run, a field inside the
  // dialog may already have taken focus in an effect of its own (children's effects run first).
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  // Shown as the render commits, not after the next paint: a key typed right after the one that
  // opened the dialog (Ctrl+K, then the query) must land in the dialog, never in the terminal behind it.
  // Whether this dialog is still on the page: its `close` event is a task queued when it closes, so it
  // can come after the dialog has left (closed by Escape and removed at once) and after the next
  // dialog has opened — that late event must not close the next one.
  const live = useRef(true);
  useLayoutEffect(() => {
    live.current = true;
    ref.current?.showModal();
    return () => {
      live.current = false;
      // After the dialog has left the page: while it is still shown as modal, the rest of the page is
      // inert and focus cannot move there.
      queueMicrotask(() => {
        if (opener?.isConnected) opener.focus();
      });
    };
  }, []);
  const titleId = `dialog-${props.title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <dialog ref={ref} aria-labelledby={titleId} class={props.wide ? 'wide' : ''} onClose={() => live.current && props.onClose()}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
    </dialog>
  );
}
