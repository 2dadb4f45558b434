/** The cardholder's message in es-MX and en-US: hotel, amount, card brand and last 4 at most, one instruction, the link. */
import { SegmentedMessage } from 'sms-segments-calculator';
import type { MessageChannel, MessageLanguage } from '../../shared/messaging';

export interface TemplateData {
  hotelName: string;
  amount: number;
  /** Lower-case ISO 4217 as the service has it (mxn, usd). */
  currency: string;
  brand?: string | undefined;
  last4?: string | undefined;
  /** The 3DS link, checked to be an http(s) URL before it gets here. */
  link: string;
}

export interface RenderedMessage {
  /** E-mail only. */
  subject?: string;
  text: string;
  /** E-mail only. */
  html?: string;
}

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  'american-express': 'American Express',
  discover: 'Discover',
  'diners-club': 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  maestro: 'Maestro',
  elo: 'Elo',
  hipercard: 'Hipercard',
};

/** A brand to show: the known names, otherwise nothing (a free-form brand could carry anything). */
export function brandName(brand: string | undefined): string | undefined {
  return brand === undefined ? undefined : BRAND_NAMES[brand.trim().toLowerCase()];
}

/** Last 4 only when it really is four digits. */
export function lastFour(last4: string | undefined): string | undefined {
  return last4 !== undefined && /^\d{4}$/.test(last4) ? last4 : undefined;
}

/** A name on one line: control characters and runs of spaces become one space. */
export function oneLine(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/**
 * "$1,234.50 MXN": the locale's number and symbol from Intl.NumberFormat, then the ISO code, because "$" alone is
 * both pesos and dollars to a guest in Mexico. No-break spaces become plain spaces (they cost SMS characters).
 */
export function formatAmount(amount: number, currency: string, language: MessageLanguage): string {
  const code = currency.toUpperCase();
  const formatted = new Intl.NumberFormat(language, {
    style: 'currency',
    currency: code,
    currencyDisplay: 'narrowSymbol',
  }).format(amount);
  const plain = formatted.replace(/[\u00a0\u202f]/g, ' ');
  return plain.includes(code) ? plain : `${plain} ${code}`;
}

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

interface Words {
  subject: (hotel: string) => string;
  card: (brand: string | undefined, last4: string | undefined) => string;
  /** The one instruction, for a WhatsApp message. */
  short: (hotel: string, amount: string, card: string, link: string) => string;
  /** The card and the one instruction for an SMS: words the GSM-7 alphabet holds whole, accents included. */
  smsCard: (brand: string | undefined, last4: string | undefined) => string;
  smsShort: (hotel: string, amount: string, card: string, link: string) => string;
  greeting: string;
  body: (hotel: string, amount: string, card: string) => string;
  button: string;
  fallback: string;
  safety: string;
  notYou: string;
}

/** A language's words for the card: its brand and last 4 when both are known, either alone, or none at all. */
const cardWords =
  (
    both: (brand: string, last4: string) => string,
    last4Only: (last4: string) => string,
    brandOnly: (brand: string) => string,
  ): Words['card'] =>
  (brand, last4) =>
    brand && last4 ? both(brand, last4) : last4 ? last4Only(last4) : brand ? brandOnly(brand) : '';

const englishCard = cardWords(
  (brand, last4) => ` with your ${brand} card ending in ${last4}`,
  (last4) => ` with your card ending in ${last4}`,
  (brand) => ` with your ${brand} card`,
);
const englishShort: Words['short'] = (hotel, amount, card, link) =>
  `${hotel}: to complete your payment of ${amount}${card}, confirm it with your bank at this link: ${link}`;

const WORDS: Record<MessageLanguage, Words> = {
  'es-MX': {
    subject: (hotel) => `${hotel}: confirme su pago con su banco`,
    card: cardWords(
      (brand, last4) => ` con su tarjeta ${brand} terminación ${last4}`,
      (last4) => ` con su tarjeta terminación ${last4}`,
      (brand) => ` con su tarjeta ${brand}`,
    ),
    // Words GSM-7 can carry with every accent they need (no á, í, ó or ú): the text message stays Spanish and cheap.
    smsCard: cardWords(
      (brand, last4) => ` con su tarjeta ${brand} que termina en ${last4}`,
      (last4) => ` con su tarjeta que termina en ${last4}`,
      (brand) => ` con su tarjeta ${brand}`,
    ),
    smsShort: (hotel, amount, card, link) =>
      `${hotel}: para completar su pago de ${amount}${card}, confirme el cargo con su banco en este enlace: ${link}`,
    short: (hotel, amount, card, link) =>
      `${hotel}: para completar su pago de ${amount}${card}, confírmelo con su banco en este enlace: ${link}`,
    greeting: 'Hola:',
    body: (hotel, amount, card) =>
      `Para completar su pago de ${amount} a ${hotel}${card}, ábralo y confírmelo con su banco en el siguiente enlace.`,
    button: 'Confirmar mi pago',
    fallback: 'Si el botón no funciona, copie este enlace en su navegador:',
    safety: 'Nunca le pediremos por mensaje el número completo de su tarjeta ni su código de seguridad.',
    notYou: 'Si usted no está haciendo este pago, ignore este mensaje.',
  },
  'en-US': {
    subject: (hotel) => `${hotel}: confirm your payment with your bank`,
    card: englishCard,
    short: englishShort,
    // English needs nothing outside the GSM alphabet: the SMS says the same.
    smsCard: englishCard,
    smsShort: englishShort,
    greeting: 'Hello,',
    body: (hotel, amount, card) =>
      `To complete your payment of ${amount} to ${hotel}${card}, open the link below and confirm it with your bank.`,
    button: 'Confirm my payment',
    fallback: 'If the button does not work, copy this link into your browser:',
    safety: 'We will never ask you by message for your full card number or security code.',
    notYou: 'If you are not making this payment, ignore this message.',
  },
};

/** Punctuation word processors put in names and that has a plain GSM-7 twin (Twilio's smart encoding does the same). */
const PLAIN_PUNCTUATION: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u00a0': ' ',
  '\u202f': ' ',
};

/** Stands for the link while the words are made GSM-friendly (a control character: never in the words, kept as it is). */
const LINK_MARK = '\u0001';

const isGsm7 = (text: string): boolean => new SegmentedMessage(text).encodingName === 'GSM-7';

/**
 * An SMS in as few segments as the language allows: one character outside the GSM-7 alphabet (an "á", a curly quote)
 * bills the whole text as UCS-2, 70 characters a segment instead of 160. Characters GSM-7 lacks are written without
 * their accent (á → a, Ú → U; é, ñ, ü, ¿ and ¡ are in GSM-7 and stay) or as their plain twin (’ → '); a character with
 * no such twin (a hotel name in another script) is kept, and the text goes as UCS-2.
 */
export function gsmFriendly(text: string): string {
  let out = '';
  for (const char of text) {
    if (isGsm7(char)) {
      out += char;
      continue;
    }
    const twin = PLAIN_PUNCTUATION[char] ?? char.normalize('NFD').replace(/\p{M}+/gu, '');
    out += twin !== '' && isGsm7(twin) ? twin : char;
  }
  return out;
}

/**
 * An SMS decided as a whole: as written, accents and all, when that costs no more segments than its GSM-friendly form
 * (a short text, or one a name keeps in UCS-2 anyway); else the GSM-friendly form. `link` stays as it is in both.
 */
export function smsText(text: string, link?: string): string {
  const marked = link === undefined ? text : text.replace(link, LINK_MARK);
  const friendly = gsmFriendly(marked);
  const unmark = (value: string): string => (link === undefined ? value : value.replace(LINK_MARK, link));
  if (friendly === marked) return text;
  return smsSegments(text).segments <= smsSegments(unmark(friendly)).segments ? text : unmark(friendly);
}

/** How an SMS is billed: its encoding and number of segments, as Twilio's segment calculator counts them. */
export function smsSegments(text: string): { encoding: 'GSM-7' | 'UCS-2'; segments: number } {
  const message = new SegmentedMessage(text);
  return { encoding: message.encodingName, segments: message.segmentsCount };
}

/** The message for a channel: SMS and WhatsApp get one short text (SMS: smsText decides its accents); e-mail a subject, plain text and HTML. */
export function renderMessage(channel: MessageChannel, language: MessageLanguage, data: TemplateData): RenderedMessage {
  const words = WORDS[language];
  const hotel = oneLine(data.hotelName);
  const amount = formatAmount(data.amount, data.currency, language);
  const card = words.card(brandName(data.brand), lastFour(data.last4));
  // The link goes in untouched: only the words around it may be made GSM-friendly.
  if (channel === 'sms')
    return {
      text: smsText(
        words.smsShort(hotel, amount, words.smsCard(brandName(data.brand), lastFour(data.last4)), data.link),
        data.link,
      ),
    };
  if (channel === 'whatsapp') return { text: words.short(hotel, amount, card, data.link) };

  const subject = words.subject(hotel);
  const text = [
    words.greeting,
    '',
    words.body(hotel, amount, card),
    '',
    data.link,
    '',
    words.safety,
    words.notYou,
    '',
    `— ${hotel}`,
    '',
  ].join('\n');
  const link = escapeHtml(data.link);
  const html = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:24px">
<tr><td style="font-size:20px;font-weight:bold;padding-bottom:16px">${escapeHtml(hotel)}</td></tr>
<tr><td style="font-size:16px;line-height:1.5">${escapeHtml(words.greeting)}</td></tr>
<tr><td style="font-size:16px;line-height:1.5;padding:8px 0 24px">${escapeHtml(words.body(hotel, amount, card))}</td></tr>
<tr><td align="center" style="padding-bottom:24px"><a href="${link}" style="display:inline-block;background:#0b6b2f;color:#ffffff;text-decoration:none;font-size:16px;font-weight:bold;padding:12px 24px;border-radius:6px">${escapeHtml(words.button)}</a></td></tr>
<tr><td style="font-size:13px;line-height:1.5;color:#52525b">${escapeHtml(words.fallback)}<br><a href="${link}" style="color:#1d4ed8;word-break:break-all">${link}</a></td></tr>
<tr><td style="font-size:13px;line-height:1.5;color:#52525b;padding-top:24px">${escapeHtml(words.safety)} ${escapeHtml(words.notYou)}</td></tr>
</table></td></tr></table>
</body></html>
`;
  return { subject, text, html };
}

/** WhatsApp template variables (Content API): {{1}} hotel, {{2}} amount, {{3}} link. */
export function templateVariables(language: MessageLanguage, data: TemplateData): Record<string, string> {
  return { '1': oneLine(data.hotelName), '2': formatAmount(data.amount, data.currency, language), '3': data.link };
}

/** What a receipt says: the hotel, the amount, the card (brand and last 4 at most) and the short reference. */
export interface ReceiptData {
  hotelName: string;
  amount: number;
  currency: string;
  brand?: string | undefined;
  last4?: string | undefined;
  /** The payment's short reference ("9F3A-1B2C"). */
  reference: string;
}

const RECEIPT_WORDS: Record<
  MessageLanguage,
  {
    subject: (hotel: string) => string;
    text: (hotel: string, amount: string, card: string, reference: string) => string;
    thanks: string;
  }
> = {
  'es-MX': {
    subject: (hotel) => `${hotel}: comprobante de su pago`,
    text: (hotel, amount, card, reference) =>
      `${hotel}: recibimos su pago de ${amount}${card}. Referencia: ${reference}.`,
    thanks: 'Gracias. Conserve este mensaje como comprobante.',
  },
  'en-US': {
    subject: (hotel) => `${hotel}: your payment receipt`,
    text: (hotel, amount, card, reference) =>
      `${hotel}: we received your payment of ${amount}${card}. Reference: ${reference}.`,
    thanks: 'Thank you. Keep this message as your receipt.',
  },
};

/** A payment's receipt for a channel: SMS one short text (smsText decides its accents); e-mail a subject, plain text and HTML. */
export function renderReceipt(channel: 'sms' | 'email', language: MessageLanguage, data: ReceiptData): RenderedMessage {
  const words = RECEIPT_WORDS[language];
  const hotel = oneLine(data.hotelName);
  const amount = formatAmount(data.amount, data.currency, language);
  const card = WORDS[language].card(brandName(data.brand), lastFour(data.last4));
  const line = words.text(hotel, amount, card, data.reference);
  if (channel === 'sms')
    return {
      text: smsText(
        `${words.text(hotel, amount, WORDS[language].smsCard(brandName(data.brand), lastFour(data.last4)), data.reference)} ${words.thanks}`,
      ),
    };
  const subject = words.subject(hotel);
  const text = [line, '', words.thanks, '', `— ${hotel}`, ''].join('\n');
  const html = `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;color:#18181b">
<p style="font-size:20px;font-weight:bold">${escapeHtml(hotel)}</p>
<p style="font-size:16px;line-height:1.5">${escapeHtml(line)}</p>
<p style="font-size:13px;color:#52525b">${escapeHtml(words.thanks)}</p>
</body></html>
`;
  return { subject, text, html };
}
