// The building block of every free-text field: card data refused first, then control and text-direction characters.
import { describe, expect, it } from 'vitest';
import { DisplayName, OperatorId } from '../../../shared/operators';
import { PaymentNote, ReservationId } from '../../../shared/payments';
import { GuestName, ReservationQuery } from '../../../shared/reservations';
import { RefundNote } from '../../../shared/desk';
import { MAX_FREE_TEXT_LENGTH, freeText, textIssueCode } from '../../../shared/text';

const firstIssue = (result: { success: boolean; error?: { issues: unknown[] } }) =>
  result.error?.issues[0] as Parameters<typeof textIssueCode>[0];

describe('freeText', () => {
  it('refuses card data before the field’s own rules: the card message comes first, with its code', () => {
    const id = OperatorId.safeParse('4242 4242 4242 4242 and far too long for an id');
    expect(id.success).toBe(false);
    expect(textIssueCode(firstIssue(id))).toBe('card_number_in_text');
    expect(firstIssue(id)?.message).toBe('This looks like a card number. Card numbers go only in the card form.');
    expect(textIssueCode(firstIssue(PaymentNote.safeParse('cvv 123')))).toBe('security_code_in_text');
  });

  it('never copies the refused text into the issue', () => {
    const result = PaymentNote.safeParse('pan 4242424242424242');
    expect(JSON.stringify(result.error?.issues)).not.toContain('4242');
  });

  it('refuses a text far longer than any field before reading it: a 32 MB note with a card in it gets the length refusal alone', () => {
    const note = `${'Cargo duplicado según la huésped. '.repeat(1 << 20)}Tarjeta 4242 4242 4242 4242, cvv 123`;
    expect(note.length).toBeGreaterThan(32 * 1024 * 1024);
    const issues = PaymentNote.safeParse(note).error?.issues ?? [];
    // Had the detector read it, the card's refusal would come first: its absence is the proof it was never scanned.
    expect(issues.map((issue) => [issue.code, textIssueCode(issue), issue.message])).toEqual([
      [
        'too_big',
        undefined,
        `This text is far too long: at most ${MAX_FREE_TEXT_LENGTH.toLocaleString('en-US')} characters.`,
      ],
    ]);
    // At the limit, the text is read: the same card in a note of exactly that length is found.
    const atLimit = `${'x'.repeat(MAX_FREE_TEXT_LENGTH - 20)} 4242 4242 4242 4242`;
    expect(atLimit).toHaveLength(MAX_FREE_TEXT_LENGTH);
    expect(textIssueCode(firstIssue(freeText().safeParse(atLimit)))).toBe('card_number_in_text');
    expect(
      freeText()
        .safeParse(`${atLimit} `)
        .error?.issues.map((issue) => issue.code),
    ).toEqual(['too_big']);
    // A field that takes longer texts says so, and is read up to its own limit.
    expect(textIssueCode(firstIssue(freeText({ maxLength: 5_000 }).safeParse(`${atLimit} `)))).toBe(
      'card_number_in_text',
    );
  });

  it('chains like any string: trim, min, max, regex', () => {
    const schema = freeText().trim().min(2, 'short').max(5, 'long');
    expect(schema.parse('  abc  ')).toBe('abc');
    expect(schema.safeParse('a').error?.issues[0]?.message).toBe('short');
  });
});

describe('control and text-direction characters', () => {
  const hidden = [
    ['a right-to-left override', 'ana\u202Egpj.exe'],
    ['a left-to-right embedding', '\u202Aana'],
    ['an isolate', 'ana\u2066x\u2069'],
    ['a right-to-left mark', 'ana\u200F'],
    ['a NUL', 'an\u0000a'],
    ['an escape', 'ana\u001B[31m'],
    ['a C1 control (NEL)', 'ana\u0085b'],
    ['a line break inside', 'ana\nsam'],
  ] as const;

  it.each(hidden)('names and ids refuse %s', (_name, text) => {
    for (const schema of [OperatorId, DisplayName, GuestName, ReservationId]) {
      const result = schema.safeParse(text);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => textIssueCode(issue))).toContain('hidden_characters');
    }
    expect(textIssueCode(firstIssue(DisplayName.safeParse(text)))).toBe('hidden_characters');
  });

  it('search text refuses them too', () => {
    expect(textIssueCode(firstIssue(ReservationQuery.safeParse({ text: 'núñez\u202E' })))).toBe('hidden_characters');
  });

  it('notes keep tabs and line breaks, but refuse direction overrides and other controls', () => {
    expect(RefundNote.parse('Cobro doble.\n\tVer llamada.')).toBe('Cobro doble.\n\tVer llamada.');
    expect(textIssueCode(firstIssue(RefundNote.safeParse('ok \u202Eevil')))).toBe('hidden_characters');
    expect(textIssueCode(firstIssue(PaymentNote.safeParse('ok \u0007')))).toBe('hidden_characters');
  });

  it('ordinary names pass: accents, apostrophes, emoji with joiners; a pasted line break at the end is trimmed', () => {
    expect(DisplayName.parse('Sofía Núñez O’Connor')).toBe('Sofía Núñez O’Connor');
    expect(DisplayName.parse('Ana 👩‍💻')).toBe('Ana 👩‍💻');
    expect(GuestName.parse('María José\n')).toBe('María José');
    expect(OperatorId.parse('ana.lopez\t')).toBe('ana.lopez');
  });
});
