// A modal dialog: overlay, title, body and actions; Escape and the close button call onClose.
import { useEffect, useId, useRef, type ReactNode } from 'react';

type DialogProps = {
  title: string;
  onClose: () => void;
  children: ReactNode;
  actions?: ReactNode;
  testId?: string;
  wide?: boolean;
};

export function Dialog({ title, onClose, children, actions, testId, wide }: DialogProps) {
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
      within('.dialog-body input, .dialog-body select, .dialog-body textarea') ??
      within('.dialog-body button, .dialog-actions button') ??
      within('button');
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, []);

  return (
    <div className="overlay" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={panel}
        className={wide ? 'dialog dialog-wide' : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
      >
        <div className="dialog-header">
          <h2 id={titleId}>{title}</h2>
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
        {actions ? <div className="dialog-actions">{actions}</div> : null}
      </div>
    </div>
  );
}

type ConfirmProps = {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  error?: string;
  onConfirm: () => void;
  onCancel: () => void;
};

/** "Are you sure?" before a destructive action. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  busy,
  error,
  onConfirm,
  onCancel,
}: ConfirmProps) {
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      testId="confirm-dialog"
      actions={
        <>
          <button type="button" className="button" onClick={onCancel} data-testid="confirm-cancel">
            Cancel
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={onConfirm}
            disabled={busy}
            data-testid="confirm-ok"
          >
            {busy ? 'Working…' : confirmLabel}
          </button>
        </>
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
