// A modal dialog: overlay, title, body and actions; Escape and the close button call onClose. Tab
// and Shift+Tab cycle inside it, and closing gives focus back to what had it (the button that opened it).
// DialogActions is every dialog's footer, SubmitButton every form's primary button, LinkButton every
// secondary action that reads as a link (Remove, All/None, Dismiss).
import { useEffect, useId, useRef, type ButtonHTMLAttributes, type ReactNode } from 'react';
import { useSubmit } from '../hooks/useSubmit';

type DialogProps = {
  title: string;
  onClose: () => void;
  children: ReactNode;
  actions?: ReactNode;
  testId?: string;
  /** A wider panel (42rem), or an extra wide one (60rem) for tables. */
  wide?: boolean | 'extra';
  /**
   * Where focus lands when it opens: the first field or action (a form's), or its title, for a
   * dialog that shows something and whose actions write (Event Details: Enter never resends).
   */
  initialFocus?: 'first' | 'title';
};

export function Dialog({
  title,
  onClose,
  children,
  actions,
  testId,
  wide,
  initialFocus = 'first',
}: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    // The first field, else the first action: never the close button when there is something to do.
    const within = (selector: string) => panel.current?.querySelector<HTMLElement>(selector);
    const first =
      initialFocus === 'title'
        ? within('.dialog-header h2')
        : (within('.dialog-body input, .dialog-body select, .dialog-body textarea') ??
          within('.dialog-body button, .dialog-actions button') ??
          within('button'));
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
      if (event.key === 'Tab' && panel.current) keepTabInside(panel.current, event);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, []);

  return (
    <div
      className="overlay"
      onMouseDown={(event) => {
        if (event.target !== event.currentTarget) return;
        // No focus change by the click: focus goes back to the opener (or stays in the dialog if it asks first).
        event.preventDefault();
        onClose();
      }}
    >
      <div
        ref={panel}
        className={wide === 'extra' ? 'dialog dialog-xwide' : wide ? 'dialog dialog-wide' : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
      >
        <div className="dialog-header">
          <h2 id={titleId} tabIndex={initialFocus === 'title' ? -1 : undefined}>
            {title}
          </h2>
          <button
            type="button"
            className="icon-button"
            aria-label="Close"
            data-testid="dialog-close"
            onClick={onClose}
          >
            ×
          </button>
        </div>
        <div className="dialog-body">{children}</div>
        {actions ? <div className="dialog-footer">{actions}</div> : null}
      </div>
    </div>
  );
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/**
 * Tab past the last control goes to the first, Shift+Tab before the first to the last. Only the
 * topmost dialog (a confirmation over another dialog) acts.
 */
function keepTabInside(panel: HTMLElement, event: KeyboardEvent): void {
  const dialogs = document.querySelectorAll('[role="dialog"][aria-modal="true"]');
  if (dialogs[dialogs.length - 1] !== panel) return;
  const controls = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => element.getClientRects().length > 0,
  );
  const active = document.activeElement;
  const index = controls.findIndex((control) => control === active);
  const outside = !panel.contains(active);
  const target = event.shiftKey
    ? index <= 0 || outside
      ? controls.at(-1)
      : undefined
    : index === controls.length - 1 || outside
      ? controls[0]
      : undefined;
  if (!target) return;
  event.preventDefault();
  target.focus();
}

type SubmitButtonProps = {
  label: string;
  /** Shown while busy, e.g. "Creating…". */
  busyLabel?: string;
  busy?: boolean;
  disabled?: boolean;
  /** Absent: a submit button of the enclosing form. */
  onClick?: () => void;
  tone?: 'primary' | 'danger';
  testId?: string;
};

/** The primary (or destructive) button of a form or dialog, disabled and relabelled while busy. */
export function SubmitButton({
  label,
  busyLabel = 'Working…',
  busy,
  disabled,
  onClick,
  tone = 'primary',
  testId,
}: SubmitButtonProps) {
  return (
    <button
      type={onClick ? 'button' : 'submit'}
      className={tone === 'danger' ? 'button button-danger' : 'button button-primary'}
      onClick={onClick}
      disabled={busy || disabled}
      data-testid={testId}
    >
      {busy ? busyLabel : label}
    </button>
  );
}

type DialogActionsProps = SubmitButtonProps & {
  /** Absent: no Cancel button (e.g. a single "Done"). */
  onCancel?: () => void;
  cancelLabel?: string;
  cancelTestId?: string;
  /** Buttons at the left end, apart from the others (e.g. Delete). */
  start?: ReactNode;
  /** More buttons, shown first (on the left of Cancel). */
  extra?: ReactNode;
};

/** A dialog's footer: Cancel and the primary action (inside a form, the submit button). */
export function DialogActions({
  onCancel,
  cancelLabel = 'Cancel',
  cancelTestId,
  start,
  extra,
  ...submit
}: DialogActionsProps) {
  return (
    <div className="dialog-actions">
      {start ? (
        <>
          {start}
          <span className="spacer" />
        </>
      ) : null}
      {extra}
      {onCancel ? (
        <button type="button" className="button" onClick={onCancel} data-testid={cancelTestId}>
          {cancelLabel}
        </button>
      ) : null}
      <SubmitButton {...submit} />
    </div>
  );
}

/** A destructive button of a dialog's footer (it asks for a confirmation or acts at once). */
export function DangerButton({
  label,
  disabled,
  small,
  onClick,
  testId,
}: {
  label: string;
  disabled?: boolean;
  /** In a table row. */
  small?: boolean;
  onClick: () => void;
  testId: string;
}) {
  return (
    <button
      type="button"
      className={small ? 'button button-small button-danger-outline' : 'button button-danger-outline'}
      disabled={disabled}
      onClick={onClick}
      data-testid={testId}
    >
      {label}
    </button>
  );
}

type LinkButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'className'> & {
  /** Beside a field or in a list, in the small text of hints. */
  small?: boolean;
  testId: string;
};

/** A button that looks like a link, for an action beside text; it never submits a form. */
export function LinkButton({ small, testId, ...button }: LinkButtonProps) {
  return (
    <button
      type="button"
      className={small ? 'link-button small' : 'link-button'}
      data-testid={testId}
      {...button}
    />
  );
}

type ConfirmProps = {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** Runs on confirm; a refusal is shown in the dialog, which stays open. */
  action: () => Promise<unknown>;
  /** After the action succeeded. */
  onDone: () => void;
  onCancel: () => void;
};

/** "Are you sure?" before a destructive action. */
export function ConfirmDialog({ title, message, confirmLabel, action, onDone, onCancel }: ConfirmProps) {
  const { busy, error, run } = useSubmit();
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      testId="confirm-dialog"
      actions={
        <DialogActions
          onCancel={onCancel}
          cancelTestId="confirm-cancel"
          label={confirmLabel}
          tone="danger"
          busy={busy}
          onClick={() => void run(action).then((done) => done && onDone())}
          testId="confirm-ok"
        />
      }
    >
      <div>{message}</div>
      <ErrorMessage message={error} />
    </Dialog>
  );
}

export function ErrorMessage({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="error" role="alert" data-testid="error-message">
      {message}
    </p>
  );
}
