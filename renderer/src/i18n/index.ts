/** Spanish (es-MX) and English (en-US) for the renderer: the typed catalogue, the provider and useI18n(). */
export { I18nProvider, useI18n } from './I18nProvider';
export { bindI18n, type I18n } from './bind';
export { CATALOGUES, LANGUAGES, LANGUAGE_NAMES, interpolate, messageFor, placeholdersOf, translate } from './catalogue';
export type { Catalogue, MessageKey, PlainKey, Placeholders, TemplateKey, Translate, Vars } from './catalogue';
export {
  formatClock,
  formatDate,
  formatHour,
  formatDateInput,
  formatDateTime,
  formatMoney,
  formatTime,
  moneyCurrency,
  parseDateInput,
  type MoneyCurrency,
} from './format';
