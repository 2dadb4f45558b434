// A field's message (a catalogue key and its values) in the screen's language.
import type { I18n } from '../../../../i18n';
import type { FieldMessage } from './fields';

export const messageText = (message: FieldMessage, t: I18n['t']): string =>
  message.key === 'card.cvc.error.length'
    ? t(message.key, message.vars)
    : message.key === 'card.holder.error.tooLong'
      ? t(message.key, message.vars)
      : t(message.key);
