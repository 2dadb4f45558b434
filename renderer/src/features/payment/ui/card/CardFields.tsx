// The card's fields while it is keyed — number, expiry, CVC, name, in tab order — each with its check shown under it.
import type { ChangeEvent, JSX, Ref } from 'react';
import { cardBrand, cvcLength } from '../../../../../../shared/payments/card';
import { MAX_FREE_TEXT_LENGTH } from '../../../../../../shared/text';
import type { I18n } from '../../../../i18n';
import { brandName } from './brand';
import {
  checkCvc,
  checkExpiry,
  checkHolder,
  checkNumber,
  cvcMaxLength,
  formatCardNumber,
  formatExpiry,
  type CardFieldName,
  type FieldCheck,
} from './fields';
import { CARD_DATA_INPUT } from './inputs';
import { messageText } from './messages';
import type { CardFormState } from './state';

interface FieldsProps {
  id: string;
  state: CardFormState;
  i18n: I18n;
  numberRef: Ref<HTMLInputElement>;
  expiryRef: Ref<HTMLInputElement>;
  cvcRef: Ref<HTMLInputElement>;
  holderRef: Ref<HTMLInputElement>;
  autoFocus: boolean;
  handlers: {
    changeNumber: (event: ChangeEvent<HTMLInputElement>) => void;
    changeExpiry: (event: ChangeEvent<HTMLInputElement>) => void;
    changeCvc: (event: ChangeEvent<HTMLInputElement>) => void;
    leave: (field: CardFieldName) => () => void;
    edited: (field: CardFieldName, value: string) => void;
  };
}

/** The card's fields, in tab order: number, expiry, CVC, name. */
export function CardFields({
  id,
  state,
  i18n,
  numberRef,
  expiryRef,
  cvcRef,
  holderRef,
  autoFocus,
  handlers,
}: FieldsProps): JSX.Element {
  const { t } = i18n;
  const { fields } = state;
  const shown = (field: CardFieldName) => ({ left: state.left[field], submitted: state.submitted });
  const number = checkNumber(fields.number, shown('number'));
  const expiry = checkExpiry(fields.expiry, shown('expiry'), state.now);
  const cvc = checkCvc(fields.cvc, fields.number, shown('cvc'));
  const holder = checkHolder(fields.holder);

  const brand = fields.number === '' ? undefined : brandName(cardBrand(fields.number));
  const brandText =
    brand !== undefined
      ? t('card.number.brand', { brand })
      : number.status === 'invalid' || number.status === 'valid'
        ? t('card.brand.unknown')
        : '';

  /** The message element is always there (a live region must exist before it speaks); described-by only when it says something. */
  const describedBy = (field: CardFieldName, check: FieldCheck, ...others: string[]): string | undefined =>
    [...others, ...(check.message ? [`${id}-${field}-message`] : [])].join(' ') || undefined;
  const message = (field: CardFieldName, check: FieldCheck): JSX.Element => (
    <p id={`${id}-${field}-message`} className="card-capture__message" aria-live="polite">
      {check.message ? messageText(check.message, t) : ''}
    </p>
  );

  return (
    <div className="card-capture__fields">
      <div className="card-capture__field card-capture__field--number">
        <label htmlFor={`${id}-number`}>{t('card.number.label')}</label>
        <input
          {...CARD_DATA_INPUT}
          id={`${id}-number`}
          ref={numberRef}
          className="card-capture__input card-capture__input--number"
          autoFocus={autoFocus}
          value={formatCardNumber(fields.number)}
          aria-invalid={number.message !== undefined}
          aria-describedby={describedBy('number', number, ...(brandText === '' ? [] : [`${id}-brand`]))}
          onChange={handlers.changeNumber}
          onBlur={handlers.leave('number')}
        />
        <p id={`${id}-brand`} className="card-capture__brand" aria-live="polite">
          {brandText}
        </p>
        {message('number', number)}
      </div>

      <div className="card-capture__row">
        <div className="card-capture__field card-capture__field--expiry">
          <label htmlFor={`${id}-expiry`}>{t('card.expiry.label')}</label>
          <input
            {...CARD_DATA_INPUT}
            id={`${id}-expiry`}
            ref={expiryRef}
            className="card-capture__input card-capture__input--expiry"
            value={formatExpiry(fields.expiry)}
            aria-invalid={expiry.message !== undefined}
            aria-describedby={describedBy('expiry', expiry)}
            onChange={handlers.changeExpiry}
            onBlur={handlers.leave('expiry')}
          />
          {message('expiry', expiry)}
        </div>

        <div className="card-capture__field card-capture__field--cvc">
          <label htmlFor={`${id}-cvc`}>{t('card.cvc.label')}</label>
          <input
            {...CARD_DATA_INPUT}
            id={`${id}-cvc`}
            ref={cvcRef}
            className="card-capture__input card-capture__input--cvc"
            maxLength={cvcMaxLength(fields.number)}
            value={fields.cvc}
            aria-invalid={cvc.message !== undefined}
            aria-describedby={describedBy('cvc', cvc, `${id}-cvc-hint`)}
            onChange={handlers.changeCvc}
            onBlur={handlers.leave('cvc')}
          />
          <p id={`${id}-cvc-hint`} className="card-capture__hint">
            {/* The length its brand gives once the number says it; before, no length that may be wrong. */}
            {brand === undefined ? t('card.cvc.hintAny') : t('card.cvc.hint', { length: cvcLength(fields.number) })}
          </p>
          {message('cvc', cvc)}
        </div>
      </div>

      <div className="card-capture__field card-capture__field--holder">
        <label htmlFor={`${id}-holder`}>
          {t('card.holder.label')} <span className="card-capture__optional">{t('common.optional')}</span>
        </label>
        <input
          id={`${id}-holder`}
          ref={holderRef}
          className="card-capture__input"
          type="text"
          autoComplete="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={MAX_FREE_TEXT_LENGTH}
          value={fields.holder}
          aria-invalid={holder.message !== undefined}
          aria-describedby={describedBy('holder', holder)}
          onChange={(event) => handlers.edited('holder', event.currentTarget.value)}
          onBlur={handlers.leave('holder')}
        />
        {message('holder', holder)}
      </div>
    </div>
  );
}
