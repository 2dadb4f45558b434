/** The English (en-US) catalogue: the source of every message key; `{name}` marks a value filled in at run time. */
import { errorsEnUS } from './errors.en-US';
import { deskEnUS } from './messages/desk.en-US';
import { callEnUS } from './messages/call.en-US';
import { paymentEnUS } from './messages/payment.en-US';
import { refundsEnUS } from './messages/refunds.en-US';
import { auditEnUS } from './messages/audit.en-US';
import { adminEnUS } from './messages/admin.en-US';

/** Each feature's messages in its own file under messages/; a key stands in one of them only. */
export const enUS = {
  ...errorsEnUS,
  ...deskEnUS,
  ...callEnUS,
  ...paymentEnUS,
  ...refundsEnUS,
  ...auditEnUS,
  ...adminEnUS,
} as const;
