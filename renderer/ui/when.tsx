// A moment as the window shows it everywhere: how long ago in a few words ("4 min ago"), the date and
// time in the person's locale on hover (its title) and in its datetime attribute. Runs in the renderer.
import { ago } from '../../common/time-words.js';

export function When(props: { at: number | string; now?: number }) {
  const at = typeof props.at === 'number' ? props.at : Date.parse(props.at);
  if (!Number.isFinite(at)) return null;
  const absolute = new Date(at).toLocaleString();
  return (
    <time dateTime={new Date(at).toISOString()} title={absolute}>
      {ago(at, props.now ?? Date.now())}
    </time>
  );
}
