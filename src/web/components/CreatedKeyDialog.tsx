// The one and only time a key's value is shown: closing the dialog forgets it (the page keeps it
// nowhere else, and the server never returns it again). So closing it (Done, ×, Escape, a click
// beside it) asks first, unless "I have copied the key" is ticked.
import { useEffect, useRef, useState } from 'react';
import type { CreatedKey } from '../api';
import { CopyButton } from './CopyButton';
import { Dialog, DialogActions } from './Dialog';

export function CreatedKeyDialog({ created, onClose }: { created: CreatedKey; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const requestClose = () => (copied ? onClose() : setConfirming(true));
  return (
    <Dialog
      title={`API key “${created.apiKey.name}” created`}
      onClose={confirming ? () => setConfirming(false) : requestClose}
      testId="created-key-dialog"
      wide
      actions={
        confirming ? (
          <CloseWithoutCopy onKeep={() => setConfirming(false)} onClose={onClose} />
        ) : (
          <DialogActions
            start={
              <label className="checkbox-label">
                <input
                  type="checkbox"
                  checked={copied}
                  onChange={(change) => setCopied(change.target.checked)}
                  data-testid="created-key-copied"
                />
                I have copied the key
              </label>
            }
            label="Done"
            onClick={requestClose}
            testId="created-key-done"
          />
        )
      }
    >
      <p className="notice notice-warning">
        Copy this key now. It is shown only once: after you close this dialog it cannot be shown again.
      </p>
      <div className="key-value-row">
        <code className="key-value" data-testid="created-key-value">
          {created.value}
        </code>
        <CopyButton text={created.value} label="Copy" testId="copy-key" />
      </div>
      <div className="snippet">
        <div className="snippet-header">
          <span className="snippet-title" data-testid="created-key-snippet-title">
            {created.snippet.title}
          </span>
          <CopyButton text={created.snippet.text} label="Copy snippet" testId="copy-snippet" />
        </div>
        <pre data-testid="created-key-snippet" data-language={created.snippet.language}>
          {created.snippet.text}
        </pre>
      </div>
    </Dialog>
  );
}

/** The step a close without "I have copied the key" asks: keeping it open is the default. */
function CloseWithoutCopy({ onKeep, onClose }: { onKeep: () => void; onClose: () => void }) {
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => keep.current?.focus(), []);
  return (
    <div className="dialog-confirm-step" role="alert" data-testid="created-key-confirm-close">
      <p className="notice notice-warning">Close without the key? It cannot be shown again.</p>
      <div className="dialog-actions">
        <button
          type="button"
          className="button button-danger-outline"
          onClick={onClose}
          data-testid="created-key-close-anyway"
        >
          Close and forget the key
        </button>
        <button
          type="button"
          className="button button-primary"
          onClick={onKeep}
          ref={keep}
          data-testid="created-key-keep-open"
        >
          Keep it open
        </button>
      </div>
    </div>
  );
}
