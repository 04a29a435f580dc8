// The Changes tab loaded when first opened: it brings @codemirror/merge (its diff views), which the
// window's first paint does not need. Runs in the renderer.
import type { ComponentProps } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ChangesTab } from './changes-tab.js';

type Props = ComponentProps<typeof ChangesTab>;

export function LazyChangesTab(props: Props) {
  const [Tab, setTab] = useState<typeof ChangesTab | null>(null);
  useEffect(() => {
    let gone = false;
    void import('./changes-tab.js').then((m) => {
      if (!gone) setTab(() => m.ChangesTab);
    });
    return () => {
      gone = true;
    };
  }, []);
  return Tab ? <Tab {...props} /> : <p class="muted">Loading…</p>;
}
