// The one and only time a key's value is shown: closing the dialog forgets it (the page keeps it
// nowhere else, and the server never returns it again).
import { useState } from 'react';
import type { CreatedKey } from '../api';
import { Dialog, DialogActions } from './Dialog';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API refused (e.g. not a secure context): fall back to a hidden text area.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

function CopyButton({ text, label, testId }: { text: string; label: string; testId: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      className="button button-small"
      data-testid={testId}
      onClick={() => {
        void copyText(text).then((copied) => setState(copied ? 'copied' : 'failed'));
      }}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select and copy' : label}
    </button>
  );
}

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
