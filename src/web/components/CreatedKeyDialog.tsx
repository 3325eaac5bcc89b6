// The one and only time a key's value is shown: closing the dialog forgets it (the page keeps it
// nowhere else, and the server never returns it again).
import type { CreatedKey } from '../api';
import { CopyButton } from './CopyButton';
import { Dialog, DialogActions } from './Dialog';

export function CreatedKeyDialog({ created, onClose }: { created: CreatedKey; onClose: () => void }) {
  return (
    <Dialog
      title={`API key “${created.apiKey.name}” created`}
      onClose={onClose}
      testId="created-key-dialog"
      wide
      actions={<DialogActions label="Done" onClick={onClose} testId="created-key-done" />}
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
