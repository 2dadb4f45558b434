// Where a message to the guest goes: the channel, the phone or e-mail (with what is wrong with it), and the guest's
// language. Shared by the 3DS link and the receipt; each form keeps its own state and rules.
import type { JSX, Ref } from 'react';
import type { MessageChannel } from '../../../../../shared/messaging';
import { useI18n } from '../../../i18n';
import { Field } from '../../../ui/Field';
import { FieldHint } from '../../../ui/FieldHint';
import { Radio } from '../../../ui/Radio';

export interface DestinationProps<C extends MessageChannel> {
  /** The form's id: the fields' ids are made from it. */
  id: string;
  channels: readonly C[];
  channel: C;
  onChannel: (next: C) => void;
  destination: string;
  onDestination: (next: string) => void;
  /** The field was left: its problem may now be shown. */
  onLeave: () => void;
  /** What is wrong with the destination, in words; undefined shows the hint. */
  problem: string | undefined;
  language: 'es-MX' | 'en-US';
  onLanguage: (next: 'es-MX' | 'en-US') => void;
  inputRef?: Ref<HTMLInputElement>;
}

export function Destination<C extends MessageChannel>(props: DestinationProps<C>): JSX.Element {
  const { t } = useI18n();
  const { id, channel, problem } = props;
  const email = channel === 'email';
  return (
    <>
      <fieldset className="channels">
        <legend>{t('link.channel')}</legend>
        {props.channels.map((option) => (
          <Radio
            key={option}
            name={`${id}-channel`}
            value={option}
            checked={channel === option}
            onChoose={() => props.onChannel(option)}
          >
            {t(`link.channel.${option}`)}
          </Radio>
        ))}
      </fieldset>
      <div className="row">
        <Field id={`${id}-to`} label={email ? t('link.field.email') : t('link.field.phone')} className="field--grow">
          <input
            {...(props.inputRef === undefined ? {} : { ref: props.inputRef })}
            id={`${id}-to`}
            type={email ? 'email' : 'tel'}
            autoComplete="off"
            value={props.destination}
            aria-invalid={problem !== undefined}
            aria-describedby={`${id}-to-help`}
            onChange={(event) => props.onDestination(event.target.value)}
            onBlur={props.onLeave}
          />
          <FieldHint id={`${id}-to-help`} problem={problem} hint={email ? t('link.emailHint') : t('link.phoneHint')} />
        </Field>
        <Field id={`${id}-lang`} label={t('link.language')}>
          <select
            id={`${id}-lang`}
            value={props.language}
            onChange={(event) => props.onLanguage(event.target.value === 'en-US' ? 'en-US' : 'es-MX')}
          >
            <option value="es-MX">Español</option>
            <option value="en-US">English</option>
          </select>
        </Field>
      </div>
    </>
  );
}
