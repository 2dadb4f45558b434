// The one confirmation before a refund's money moves (a supervisor's refund, an approval): the question names the amount
// and the key says it ("Refund $899.99 MXN"). Focus lands on the question, never on the key, so a reflex Enter sends
// nothing; a refusal takes the focus to its words. The key is a plain button: no Enter in a field of the page presses it.
import { useEffect, useId, useRef, type JSX, type ReactNode } from 'react';
import { useI18n } from '../../../i18n';

interface Props {
  title: string;
  /** "Approve a refund of $899.99 MXN to Chloé Dubois-Smith?" */
  question: string;
  /** What the operator checks before confirming (the payment, guest, card…). */
  children?: ReactNode;
  /** The key's words, naming the amount; absent while the amount is not known (nothing can be confirmed). */
  confirmLabel: string | undefined;
  cancelLabel: string;
  busy: boolean;
  error: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmRefund({
  title,
  question,
  children,
  confirmLabel,
  cancelLabel,
  busy,
  error,
  onConfirm,
  onCancel,
}: Props): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const section = useRef<HTMLElement>(null);
  const asked = useRef<HTMLParagraphElement>(null);
  const refusal = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    section.current?.scrollIntoView?.({ block: 'nearest' });
    asked.current?.focus();
  }, []);
  useEffect(() => {
    if (error !== undefined) refusal.current?.focus();
  }, [error]);

  return (
    <section ref={section} className="subpanel confirm-refund" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <p ref={asked} tabIndex={-1} className="confirm-refund__question">
        {question}
      </p>
      {children}
      {error && (
        <p ref={refusal} tabIndex={-1} className="error" role="alert">
          {error}
        </p>
      )}
      <div className="actions">
        {confirmLabel !== undefined && (
          // Busy, it stays focusable (aria-disabled): a disabled button would drop the focus to the page.
          <button type="button" className="primary" aria-disabled={busy} onClick={() => busy || onConfirm()}>
            {busy ? t('refund.sending') : confirmLabel}
          </button>
        )}
        <button type="button" aria-disabled={busy} onClick={() => busy || onCancel()}>
          {cancelLabel}
        </button>
      </div>
    </section>
  );
}
