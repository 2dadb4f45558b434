// The card once sent: brand and last 4 only, with what is under way (checking the card, charging it).
import type { JSX, Ref } from 'react';
import type { I18n } from '../../../../i18n';
import { brandName } from './brand';
import type { CardFormState } from './state';

interface SummaryProps {
  id: string;
  state: CardFormState;
  i18n: I18n;
  statusRef: Ref<HTMLParagraphElement>;
  summaryRef: Ref<HTMLDivElement>;
  onAnotherCard: () => void;
}

/** After the card is sent: brand and last 4 only, with what is under way. */
export function CardSummary({
  id,
  state,
  i18n,
  statusRef,
  summaryRef,
  onAnotherCard,
}: SummaryProps): JSX.Element | null {
  const { t } = i18n;
  const { phase } = state;
  if (phase.kind === 'entry') return null;
  const brand = phase.kind === 'tokenizing' ? phase.brand : phase.method.brand;
  const last4 = phase.kind === 'tokenizing' ? phase.last4 : phase.method.last4;
  const card = t('card.summary', { brand: brandName(brand) ?? t('card.brand.unknown'), last4 });

  if (phase.kind === 'tokenizing') {
    return (
      <p ref={statusRef} className="card-capture__status" role="status" tabIndex={-1}>
        <strong>{card}</strong> — {t('card.status.tokenizing')}
      </p>
    );
  }
  return (
    <div
      ref={summaryRef}
      className="card-capture__summary"
      tabIndex={-1}
      role="group"
      aria-labelledby={`${id}-summary-label`}
    >
      <p className="card-capture__summary-text">
        <span id={`${id}-summary-label`}>{t('card.summary.label')}</span>{' '}
        <strong className="card-capture__card">{card}</strong>
      </p>
      <p className="card-capture__status" role="status">
        {phase.kind === 'paying' ? t('card.status.paying') : ''}
      </p>
      <button type="button" onClick={onAnotherCard}>
        {t('card.action.anotherCard')}
      </button>
    </div>
  );
}
