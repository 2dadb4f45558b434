// The audit trail in the desk's language: every action the contract declares (and every one main writes by itself) has
// words in both catalogues, so that no new action can appear raw; details read as labelled values.
import { describe, expect, it } from 'vitest';
import { MAIN_AUDIT_ACTIONS } from '../../../../shared/desk';
import { CHANNELS } from '../../../../shared/ipc/contract';
import type { Language } from '../../../../shared/language';
import { actionKey, actionText, actorText, detailParts, idText } from '../../../../renderer/src/features/audit/wording';
import { bindI18n, CATALOGUES } from '../../../../renderer/src/i18n';

const contractActions = [
  ...new Set(Object.values(CHANNELS).flatMap((spec) => (spec.audit === 'none' ? [] : [spec.audit.action]))),
].sort();
const i18n = (language: Language) => bindI18n(language, () => undefined);
const line = (parts: { label: string; text: string }[]): string =>
  parts.map((part) => `${part.label}: ${part.text}`).join(' · ');

describe('audit actions in words', () => {
  it('the contract declares audit actions (the list below is not empty by accident)', () => {
    expect(contractActions).toContain('session.signIn');
    expect(contractActions.length).toBeGreaterThan(20);
  });

  it.each(['es-MX', 'en-US'] as const)('every action of the contract and of main is worded in %s', (language) => {
    const missing = [...contractActions, ...MAIN_AUDIT_ACTIONS].filter(
      (action) => !Object.hasOwn(CATALOGUES[language], actionKey(action)),
    );
    expect(missing).toEqual([]);
  });

  it('reads an action in the desk’s language', () => {
    expect(actionText('session.signIn', i18n('es-MX'))).toBe('Inició sesión');
    expect(actionText('session.signIn', i18n('en-US'))).toBe('Signed in');
  });
});

describe('audit details as labelled values', () => {
  it('an amount with its currency as money, once', () => {
    expect(
      line(detailParts({ action: 'payment.create', details: { amountCents: 90_000, currency: 'mxn' } }, i18n('es-MX'))),
    ).toBe('Monto: $900.00 MXN');
    expect(
      line(detailParts({ action: 'payment.create', details: { amountCents: 90_000, currency: 'mxn' } }, i18n('en-US'))),
    ).toBe('Amount: $900.00 MXN');
  });

  it('booleans, roles and statuses in words; “all left” as the desk says it', () => {
    const parts = detailParts(
      { action: 'account.update', details: { role: 'supervisor', disabled: false } },
      i18n('es-MX'),
    );
    expect(line(parts)).toBe('Rol: supervisor · Desactivada: no');
    expect(
      line(
        detailParts(
          { action: 'refund.request', details: { amountCents: 'all left', reason: 'duplicate' } },
          i18n('es-MX'),
        ),
      ),
    ).toBe('Monto: todo lo que queda · Motivo: Cargo duplicado');
  });

  it('ids short, with the whole id kept; a payment by the reference read to the guest', () => {
    expect(idText('pay_0123456789abcdef9f3a1b2c')).toEqual({ text: '9F3A-1B2C', full: 'pay_0123456789abcdef9f3a1b2c' });
    expect(idText('op_5b7c9d1e2f3a4b5c6d7e')).toEqual({ text: 'op_5b7c9d1…', full: 'op_5b7c9d1e2f3a4b5c6d7e' });
    expect(idText('CUN-6B3D8F')).toEqual({ text: 'CUN-6B3D8F' });
  });

  it('the service’s request id last, labelled', () => {
    const parts = detailParts(
      { action: 'payment.create', details: { reservationId: 'CUN-6B3D8F' }, requestId: 'req_abcdefghijklmnopqrstu' },
      i18n('en-US'),
    );
    expect(line(parts)).toBe('Reservation: CUN-6B3D8F · Service request: req_abcdef…');
  });
});

describe('audit actors', () => {
  it('by name, the id kept for a tooltip; the app’s own work in words', () => {
    expect(actorText({ actor: 'sam', actorName: 'Sam Ruiz' }, i18n('es-MX'))).toEqual({
      text: 'Sam Ruiz',
      full: 'sam',
    });
    expect(actorText({ actor: 'system' }, i18n('es-MX')).text).toBe('La aplicación');
    expect(actorText({ actor: 'ghost' }, i18n('es-MX'))).toEqual({ text: 'ghost' });
  });
});
