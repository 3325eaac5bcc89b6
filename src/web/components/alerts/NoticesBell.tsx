// The signed-in person's notices of failing and disabled webhooks (docs/deliveries.md#when-an-endpoint-keeps-failing),
// in the header: a count that turns red while any is open, and a panel to read and dismiss them. Read
// again on each page change and every 30 s, so a webhook disabled meanwhile shows without a reload.
import { useCallback, useEffect, useState } from 'react';
import { api, type NoticeView } from '../../api';
import { DateTime } from '../../format';
import { useSubmit } from '../../hooks/useSubmit';
import { Link, useRouter } from '../../router';
import { ErrorMessage, LinkButton } from '../Dialog';

const READ_EVERY_MS = 30_000;

export function NoticesBell() {
  const { path } = useRouter();
  const [notices, setNotices] = useState<NoticeView[]>([]);
  const [open, setOpen] = useState(false);
  const { error, run } = useSubmit();

  const read = useCallback(async () => {
    try {
      setNotices((await api.notices()).data);
    } catch {
      // The bell is news, not a page: it tries again at the next change of page or in 30 s.
    }
  }, []);
  useEffect(() => {
    void read();
    const timer = window.setInterval(() => void read(), READ_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [read, path]);

  const dismiss = (notice: NoticeView) =>
    void run(async () => {
      setNotices((await api.dismissNotice(notice.id)).data);
    });

  const count = notices.length;
  return (
    <div className="notices">
      <button
        type="button"
        className={
          count ? 'button button-small notices-bell notices-bell-open' : 'button button-small notices-bell'
        }
        aria-expanded={open}
        aria-controls="notices-panel"
        aria-label={count ? `Notices: ${count} open` : 'Notices: none'}
        onClick={() => setOpen((now) => !now)}
        data-testid="notices-bell"
        data-count={count}
      >
        Notices{count ? ` (${count})` : ''}
      </button>
      {open ? (
        <section
          id="notices-panel"
          className="notices-panel"
          aria-label="Notices"
          data-testid="notices-panel"
        >
          {count === 0 ? <p className="muted">No notices.</p> : null}
          {notices.map((notice) => (
            <article key={notice.id} className="notice-item" data-testid="notice" data-kind={notice.kind}>
              <strong className="notice-title">{notice.title}</strong>
              <p>{notice.message}</p>
              <p className="hint">
                <DateTime value={notice.createdAt} />
                {' · '}
                <Link to="/webhooks" onClick={() => setOpen(false)} data-testid="notice-open-webhooks">
                  Open Webhooks
                </Link>
                {' · '}
                <LinkButton onClick={() => dismiss(notice)} testId="notice-dismiss">
                  Dismiss
                </LinkButton>
              </p>
            </article>
          ))}
          <ErrorMessage message={error} />
        </section>
      ) : null}
    </div>
  );
}
