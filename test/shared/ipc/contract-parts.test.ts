// Each domain's channels, and each feature's messages, stand in one file only: spread into one object, a name given
// twice would silently take the later file's definition.
import { describe, expect, it } from 'vitest';
import { APP_CHANNELS } from '../../../shared/ipc/app-channels';
import { CHANNELS } from '../../../shared/ipc/contract';
import { LIVE_CHANNELS } from '../../../shared/ipc/live-channels';
import { MESSAGING_CHANNELS } from '../../../shared/ipc/messaging-channels';
import { PAYMENT_CHANNELS } from '../../../shared/ipc/payment-channels';
import { REFUND_CHANNELS } from '../../../shared/ipc/refund-channels';
import { REPORT_CHANNELS } from '../../../shared/ipc/report-channels';
import { RESERVATION_CHANNELS } from '../../../shared/ipc/reservation-channels';
import { SESSION_CHANNELS } from '../../../shared/ipc/session-channels';
import { errorsEnUS } from '../../../renderer/src/i18n/errors.en-US';
import { errorsEsMX } from '../../../renderer/src/i18n/errors.es-MX';
import { enUS } from '../../../renderer/src/i18n/messages.en-US';
import { esMX } from '../../../renderer/src/i18n/messages.es-MX';
import { adminEnUS } from '../../../renderer/src/i18n/messages/admin.en-US';
import { adminEsMX } from '../../../renderer/src/i18n/messages/admin.es-MX';
import { auditEnUS } from '../../../renderer/src/i18n/messages/audit.en-US';
import { auditEsMX } from '../../../renderer/src/i18n/messages/audit.es-MX';
import { callEnUS } from '../../../renderer/src/i18n/messages/call.en-US';
import { callEsMX } from '../../../renderer/src/i18n/messages/call.es-MX';
import { deskEnUS } from '../../../renderer/src/i18n/messages/desk.en-US';
import { deskEsMX } from '../../../renderer/src/i18n/messages/desk.es-MX';
import { paymentEnUS } from '../../../renderer/src/i18n/messages/payment.en-US';
import { paymentEsMX } from '../../../renderer/src/i18n/messages/payment.es-MX';
import { refundsEnUS } from '../../../renderer/src/i18n/messages/refunds.en-US';
import { refundsEsMX } from '../../../renderer/src/i18n/messages/refunds.es-MX';

/** The names two or more parts give. */
function givenTwice(parts: readonly object[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const part of parts)
    for (const name of Object.keys(part)) {
      if (seen.has(name)) twice.add(name);
      seen.add(name);
    }
  return [...twice].sort();
}

describe('the parts the contract and the catalogues are made of', () => {
  const channelParts = [
    APP_CHANNELS,
    SESSION_CHANNELS,
    RESERVATION_CHANNELS,
    PAYMENT_CHANNELS,
    MESSAGING_CHANNELS,
    REFUND_CHANNELS,
    REPORT_CHANNELS,
    LIVE_CHANNELS,
  ];

  it('give each channel in one domain file, and the contract is all of them', () => {
    expect(givenTwice(channelParts)).toEqual([]);
    expect(Object.keys(CHANNELS).length).toBe(channelParts.reduce((n, part) => n + Object.keys(part).length, 0));
  });

  it.each([
    ['en-US', enUS, [errorsEnUS, deskEnUS, callEnUS, paymentEnUS, refundsEnUS, auditEnUS, adminEnUS]],
    ['es-MX', esMX, [errorsEsMX, deskEsMX, callEsMX, paymentEsMX, refundsEsMX, auditEsMX, adminEsMX]],
  ] as const)('give each %s message in one feature file, and the catalogue is all of them', (_, catalogue, parts) => {
    expect(givenTwice(parts)).toEqual([]);
    expect(Object.keys(catalogue).length).toBe(parts.reduce((n, part) => n + Object.keys(part).length, 0));
  });

  it('finds a name given twice', () => {
    expect(givenTwice([{ 'payments:pay': 1 }, { 'payments:pay': 2, 'refunds:approve': 3 }])).toEqual(['payments:pay']);
  });
});
