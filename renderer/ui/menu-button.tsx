// A menu button (WAI-ARIA's menu button pattern): a button that opens a menu of actions; ↓/↑ (and
// Home/End) move between its items, Enter or Space runs one, Escape or Tab closes it with the focus
// back on the button, a click elsewhere closes it. An item that cannot run now stays in the menu,
// disabled, with the reason as its description and tooltip. Runs in the renderer.
import { useEffect, useRef, useState } from 'preact/hooks';

export interface MenuItem {
  id: string;
  label: string;
  run: () => void;
  /** Why it cannot run now; the item is disabled while this is set. */
  disabledReason?: string;
  danger?: boolean;
}

export function MenuButton(props: { label: string; id: string; items: MenuItem[] }) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const n = props.items.length;

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[active]?.focus();
  }, [open, active]);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent): void => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = (focusButton: boolean): void => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };
  const openAt = (index: number): void => {
    setActive(index);
    setOpen(true);
  };
  const run = (item: MenuItem): void => {
    if (item.disabledReason) return;
    close(true);
    item.run();
  };

  return (
    <div class="menu-anchor">
      <button
        type="button"
        ref={button}
        id={`${props.id}-button`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={`${props.id}-menu`}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            openAt(e.key === 'ArrowDown' ? 0 : n - 1);
          }
        }}
      >
        {props.label} <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <ul
          role="menu"
          ref={menu}
          id={`${props.id}-menu`}
          aria-labelledby={`${props.id}-button`}
          class="menu"
          onKeyDown={(e) => {
            const step: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1 + n, Home: 0, End: n - 1 };
            if (e.key in step) {
              e.preventDefault();
              setActive((step[e.key] as number) % n);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              close(true);
            } else if (e.key === 'Tab') close(false);
          }}
        >
          {props.items.map((item, i) => (
            <li role="none" key={item.id}>
              <button
                type="button"
                role="menuitem"
                tabIndex={i === active ? 0 : -1}
                class={item.danger ? 'menu-item menu-danger' : 'menu-item'}
                aria-disabled={item.disabledReason ? true : undefined}
                {...(item.disabledReason ? { 'aria-description': item.disabledReason } : {})}
                title={item.disabledReason}
                onClick={() => run(item)}
              >
                {item.label}
                {/* Shown under the label; a screen reader hears it as the item's description instead. */}
                {item.disabledReason ? (
                  <span class="menu-why" aria-hidden="true">
                    {item.disabledReason}
                  </span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
