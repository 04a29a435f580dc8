// The shortcuts list (`?`): each key and what it does, from renderer/ui/shortcuts.ts. Runs in the renderer.
import { Modal } from '../ui/modal.js';
import { keysWords, SHORTCUTS } from '../ui/shortcuts.js';

export function ShortcutsDialog(props: { onClose: () => void }) {
  const mac = /Mac/.test(navigator.platform);
  return (
    <Modal title="Keyboard shortcuts" onClose={props.onClose}>
      <table class="shortcuts">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <th scope="row">
                <kbd>{keysWords(s.keys, mac)}</kbd>
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
