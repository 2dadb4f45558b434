// The fields of a refund (full or partial, the amount, the reason), shared by the supervisor's refund and the agent's request.
import { useId, type JSX } from 'react';
import { moneyCurrency, useI18n } from '../../../i18n';
import { Field } from '../../../ui/Field';
import { FieldHint } from '../../../ui/FieldHint';
import { Radio } from '../../../ui/Radio';
import { amountText as amountTextOf } from '../../payment';
import { REFUND_REASONS, isRefundReason } from '../reasons';
import type { DraftCheck, RefundDraft } from '../draft';

export interface RefundFieldsProps {
  draft: RefundDraft;
  onChange: (draft: RefundDraft) => void;
  /** In cents. */
  refundableCents: number;
  currency: string;
  /** The check of the draft; its problems are shown once the operator tried to send it (or typed an amount). */
  check: DraftCheck;
  showProblems: boolean;
  disabled?: boolean;
}

export function RefundFields({
  draft,
  onChange,
  refundableCents,
  currency,
  check,
  showProblems,
  disabled = false,
}: RefundFieldsProps): JSX.Element {
  const { t, money } = useI18n();
  const id = useId();
  const left = money(refundableCents, moneyCurrency(currency));
  const amountProblem = check.ok ? undefined : check.amount;
  // An amount above what is left is said at once; other problems once the operator tries to send.
  const showAmount = amountProblem !== undefined && (showProblems || amountProblem === 'refund.overLeft');
  const reasonProblem = !check.ok && showProblems ? check.reason : undefined;
  const amountText = draft.scope === 'full' ? amountTextOf(refundableCents) : draft.amount;
  return (
    <>
      <fieldset disabled={disabled}>
        <legend>{t('refund.scope.legend')}</legend>
        <Radio
          name={`${id}-scope`}
          value="full"
          checked={draft.scope === 'full'}
          onChoose={() => onChange({ ...draft, scope: 'full' })}
        >
          {t('refund.scope.full', { amount: left })}
        </Radio>
        <Radio
          name={`${id}-scope`}
          value="partial"
          checked={draft.scope === 'partial'}
          onChoose={() =>
            onChange({
              ...draft,
              scope: 'partial',
              amount: draft.amount === '' ? amountTextOf(refundableCents) : draft.amount,
            })
          }
        >
          {t('refund.scope.partial')}
        </Radio>
      </fieldset>
      <div className="row">
        <Field id={`${id}-amount`} label={t('refund.amount')}>
          <input
            id={`${id}-amount`}
            inputMode="decimal"
            autoComplete="off"
            value={amountText}
            disabled={disabled || draft.scope === 'full'}
            aria-invalid={showAmount}
            aria-describedby={`${id}-amount-help`}
            onChange={(event) => onChange({ ...draft, amount: event.target.value })}
          />
          <FieldHint
            id={`${id}-amount-help`}
            problem={
              showAmount && amountProblem !== undefined
                ? amountProblem === 'refund.overLeft'
                  ? t('refund.overLeft', { left })
                  : t(amountProblem)
                : undefined
            }
            hint={`${t('refund.left')}: ${left}`}
            alert
          />
        </Field>
        <Field id={`${id}-reason`} label={t('refund.reason.label')}>
          <select
            id={`${id}-reason`}
            value={draft.reason}
            disabled={disabled}
            aria-invalid={reasonProblem !== undefined}
            aria-describedby={reasonProblem ? `${id}-reason-error` : undefined}
            onChange={(event) =>
              onChange({ ...draft, reason: isRefundReason(event.target.value) ? event.target.value : '' })
            }
          >
            <option value="">{t('refund.reason.choose')}</option>
            {REFUND_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {t(`refund.reason.${reason}`)}
              </option>
            ))}
          </select>
          {reasonProblem && (
            <p id={`${id}-reason-error`} className="error">
              {t(reasonProblem)}
            </p>
          )}
        </Field>
      </div>
    </>
  );
}
