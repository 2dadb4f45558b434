/** El catálogo en español de México (es-MX): cada clave del catálogo en-US, con los mismos `{marcadores}`. */
import type { Catalogue } from './catalogue';
import { errorsEsMX } from './errors.es-MX';
import { deskEsMX } from './messages/desk.es-MX';
import { callEsMX } from './messages/call.es-MX';
import { paymentEsMX } from './messages/payment.es-MX';
import { refundsEsMX } from './messages/refunds.es-MX';
import { auditEsMX } from './messages/audit.es-MX';
import { adminEsMX } from './messages/admin.es-MX';

/** Cada parte tiene las claves de su parte en-US (messages/); el catálogo completo, cada clave de en-US. */
export const esMX: Catalogue = {
  ...errorsEsMX,
  ...deskEsMX,
  ...callEsMX,
  ...paymentEsMX,
  ...refundsEsMX,
  ...auditEsMX,
  ...adminEsMX,
};
