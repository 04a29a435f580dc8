// The end of every dialog that asks and acts (new session, settings, rename, remove, restore): the
// error in an alert, then Cancel, any further action, and the primary one; and FormDialog, a modal
// (modal.tsx) holding a form whose submit is the primary action. Runs in the renderer.
import type { ComponentChildren } from 'preact';
import { Modal } from './modal.js';

export interface DialogFooterProps {
  /** What went wrong, '' when nothing did. */
  error: string;
  /** The error's element id, for a field or button it describes. */
  errorId?: string;
  /** Given (null included), the error is a block of paragraphs, this one below it. */
  errorMore?: ComponentChildren;
  onCancel: () => void;
  /** The primary action: the form's submit, or a plain button run by `onClick`. */
  /** `danger`: it deletes or kills something, and looks it (red). */
  primary: { label: ComponentChildren; disabled?: boolean; onClick?: () => void; describedByError?: boolean; danger?: boolean };
  /** Buttons between Cancel and the primary one. */
  extra?: ComponentChildren;
}

export function DialogFooter(props: DialogFooterProps) {
  const { error, primary } = props;
  const alert =
    props.errorMore !== undefined ? (
      <div class="error" role="alert" id={props.errorId}>
        <p>{error}</p>
        {props.errorMore}
      </div>
    ) : (
      <p class="error" role="alert" id={props.errorId}>
        {error}
      </p>
    );
  return (
    <>
      {error ? alert : null}
      <div class="dialog-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        {props.extra}
        <button
          type={primary.onClick ? 'button' : 'submit'}
          class={primary.danger ? 'danger-primary' : 'primary'}
          disabled={primary.disabled}
          onClick={primary.onClick}
          aria-describedby={primary.describedByError && error ? props.errorId : undefined}
        >
          {primary.label}
        </button>
      </div>
    </>
  );
}

/** A modal dialog whose body is a form: Enter or the primary button submits it. */
export function FormDialog(props: DialogFooterProps & { title: string; onSubmit: () => void; children: ComponentChildren }) {
  const { title, onSubmit, children, ...footer } = props;
  return (
    <Modal title={title} onClose={props.onCancel}>
      <FormBody onSubmit={onSubmit} footer={footer}>
        {children}
      </FormBody>
    </Modal>
  );
}

/** The form of a dialog, for one that shows something else until the form is ready (settings). */
export function FormBody(props: { onSubmit: () => void; footer: DialogFooterProps; children: ComponentChildren }) {
  return (
    <form
      class="form"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
      <DialogFooter {...props.footer} />
    </form>
  );
}
