// The shortcuts list (`?`): each key and what it does, from renderer/shortcuts.ts. Runs in the renderer.
import { Modal } from './modal.js';
import { SHORTCUTS } from './shortcuts.js';

export function ShortcutsDialog(props: { onClose: () => void }) {
  const mod = /Mac/.test(navigator.platform) ? '⌘' : 'Ctrl';
  return (
    <Modal title="Keyboard shortcuts" onClose={props.onClose}>
      <table class="shortcuts">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <th scope="row">
                <kbd>{s.keys.replaceAll('Mod', mod)}</kbd>
              </th>
              <td>{s.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="dialog-actions">
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
