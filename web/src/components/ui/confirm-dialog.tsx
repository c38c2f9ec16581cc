import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import styles from './confirm-dialog.module.css';

type ConfirmDialogProps = {
  /** The question, e.g. 'Delete this collection?'. */
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/**
 * A modal confirmation (role alertdialog): focus moves to Cancel when it opens, Tab stays inside,
 * Escape cancels and focus returns to whatever opened it. Render it only while it is open.
 */
export function ConfirmDialog({
  message,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const messageId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancelRef.current?.focus();
    return () => opener?.focus();
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const buttons = Array.from(panelRef.current.querySelectorAll<HTMLButtonElement>('button:not(:disabled)'));
    if (buttons.length === 0) return;
    const first = buttons[0]!;
    const last = buttons[buttons.length - 1]!;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className={styles.backdrop} onKeyDown={onKeyDown}>
      <div ref={panelRef} className={styles.panel} role="alertdialog" aria-modal="true" aria-describedby={messageId}>
        <p id={messageId} className={styles.message}>
          {message}
        </p>
        <div className={styles.actions}>
          <button ref={cancelRef} type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </button>
          <button type="button" className={`btn ${styles.danger}`} onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}

type Question = Pick<ConfirmDialogProps, 'message' | 'confirmLabel' | 'cancelLabel'>;

/**
 * Asking before an action on one item (a delete): `ask(item)` opens the dialog that `dialog` renders (null while
 * closed); confirming runs `action(item)`, which says itself how it went, and the dialog closes when it is done.
 */
export function useConfirmation<T>(action: (item: T) => Promise<void>, question: (item: T) => Question) {
  const [asked, setAsked] = useState<{ item: T } | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirm(item: T) {
    setBusy(true);
    try {
      await action(item);
    } finally {
      setBusy(false);
      setAsked(null);
    }
  }

  const dialog = asked ? (
    <ConfirmDialog
      {...question(asked.item)}
      busy={busy}
      onConfirm={() => void confirm(asked.item)}
      onCancel={() => setAsked(null)}
    />
  ) : null;
  return { ask: (item: T) => setAsked({ item }), dialog };
}
