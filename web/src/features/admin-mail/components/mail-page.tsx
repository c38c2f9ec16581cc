import { useState } from 'react';
import { PageHeader } from '@/components/layout/page-header';
import { LoadedList } from '@/components/ui/loaded-list';
import { formatIndiaTime } from '@/lib/india-time';
import { useGetSandboxMailQuery, type SandboxMail } from '../api/mail-api';
import styles from './mail.module.css';

type View = 'text' | 'html';

/** One message opened: its headers and its plain-text or HTML body (the HTML in a sandboxed frame: no scripts). */
function MessageView({ mail }: { mail: SandboxMail }) {
  const [view, setView] = useState<View>('text');
  return (
    <article className={styles.message} aria-label={`Message: ${mail.subject}`}>
      <h2 className={styles.subject}>{mail.subject}</h2>
      <dl className={styles.headers}>
        <dt>To</dt>
        <dd>{mail.to}</dd>
        <dt>From</dt>
        <dd>{mail.from}</dd>
        <dt>Sent</dt>
        <dd>{formatIndiaTime(mail.sentAt)}</dd>
      </dl>
      <div className={styles.tabs} role="group" aria-label="Body">
        {(['text', 'html'] as const).map((v) => (
          <button
            key={v}
            type="button"
            className={`btn ${view === v ? 'btn-primary' : 'btn-outline'}`}
            aria-pressed={view === v}
            onClick={() => setView(v)}
          >
            {v === 'text' ? 'Plain text' : 'HTML'}
          </button>
        ))}
      </div>
      {view === 'text' ? (
        <pre className={styles.text}>{mail.text}</pre>
      ) : (
        <iframe className={styles.html} title={`HTML of ${mail.subject}`} sandbox="" srcDoc={mail.html} />
      )}
    </article>
  );
}

/**
 * /admin/mail: the built-in mail sandbox, as MailHog shows it: every e-mail the shop sent while no SMTP server is
 * set (order e-mails, password resets), newest first; one opens beside the list (under it on a phone).
 */
export function MailPage() {
  const mail = useGetSandboxMailQuery(undefined, { refetchOnMountOrArgChange: true });
  const [openId, setOpenId] = useState<number | null>(null);
  const messages = mail.data?.messages;
  const open = messages?.find((m) => m.id === openId) ?? messages?.[0];

  return (
    <section className="container page">
      <PageHeader
        title="Mail"
        actions={
          <button type="button" className="btn btn-outline" onClick={() => void mail.refetch()}>
            Refresh
          </button>
        }
      />
      {mail.data && !mail.data.sandbox ? (
        <p className={styles.note}>
          E-mails go to the SMTP server (SMTP_URL); the sandbox below holds only what was kept before.
        </p>
      ) : (
        <p className={styles.note}>E-mails the shop sent, kept here: nothing leaves this machine.</p>
      )}
      <LoadedList
        query={{ isLoading: mail.isLoading, isError: mail.isError, data: messages }}
        error="Could not load the mail"
        errorClassName={styles.inlineError}
        empty="No e-mails yet. Order e-mails and password resets appear here."
      >
        {(list) => (
          <div className={styles.layout}>
            <ul className={styles.list} aria-label="Messages">
              {list.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    className={`${styles.item} ${m.id === open?.id ? styles.selected : ''}`}
                    aria-current={m.id === open?.id ? 'true' : undefined}
                    onClick={() => setOpenId(m.id)}
                  >
                    <span className={styles.itemSubject}>{m.subject}</span>
                    <span className={styles.itemMeta}>
                      {m.to} · {formatIndiaTime(m.sentAt)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            {open ? <MessageView key={open.id} mail={open} /> : null}
          </div>
        )}
      </LoadedList>
    </section>
  );
}
