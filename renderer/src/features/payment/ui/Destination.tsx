// Where a message to the guest goes: the channel, the phone or e-mail (with what is wrong with it), and the guest's
// language. Shared by the 3DS link and the receipt; each form keeps its own state and rules.
import type { JSX, Ref } from 'react';
import type { MessageChannel } from '../../../../../shared/messaging';
import { useI18n } from '../../../i18n';

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
          <label key={option} className="check">
            <input
              type="radio"
              name={`${id}-channel`}
              value={option}
              checked={channel === option}
              onChange={() => props.onChannel(option)}
            />
            {t(`link.channel.${option}`)}
          </label>
        ))}
      </fieldset>
      <div className="row">
        <div className="field field--grow">
          <label htmlFor={`${id}-to`}>{email ? t('link.field.email') : t('link.field.phone')}</label>
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
          <p id={`${id}-to-help`} className={problem ? 'error' : 'hint'}>
            {problem ?? (email ? t('link.emailHint') : t('link.phoneHint'))}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-lang`}>{t('link.language')}</label>
          <select
            id={`${id}-lang`}
            value={props.language}
            onChange={(event) => props.onLanguage(event.target.value === 'en-US' ? 'en-US' : 'es-MX')}
          >
            <option value="es-MX">Español</option>
            <option value="en-US">English</option>
          </select>
        </div>
      </div>
    </>
  );
}
