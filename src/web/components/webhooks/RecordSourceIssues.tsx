// The messages of the rules a record source setting breaks, shown beside that setting: the
// dialog's own checks before sending, or the server's refusal issues that name it (`path`).

export function IssueMessages({ messages }: { messages: readonly string[] }) {
  if (!messages.length) return null;
  return (
    <span className="field-error" role="alert" data-testid="record-source-issue">
      {[...new Set(messages)].join(' ')}
    </span>
  );
}
