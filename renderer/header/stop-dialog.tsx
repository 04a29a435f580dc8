// Asks before stopping or restarting the selected session's agent (DESIGN.md §13): either kills the
// agent's process, which loses what it was typing or running, so it takes a confirmation (a form
// dialog whose red primary button is the action; Escape or Cancel keeps it running). Runs in the
// renderer.
import { FormDialog } from '../ui/form-dialog.js';

export function StopDialog(props: { name: string; restart: boolean; onCancel: () => void; onConfirm: () => void }) {
  const verb = props.restart ? 'Restart' : 'Stop';
  return (
    <FormDialog
      title={`${verb} ${props.name}?`}
      onCancel={props.onCancel}
      onSubmit={() => {
        props.onCancel();
        props.onConfirm();
      }}
      error=""
      primary={{ label: `${verb} agent`, danger: true }}
    >
      <p>
        {props.restart
          ? 'Its agent is stopped, whatever it is doing, and started again; it picks up its conversation.'
          : 'Its agent is stopped, whatever it is doing. Mori does not restart it until you Start it again; its conversation can be resumed then.'}
      </p>
    </FormDialog>
  );
}
