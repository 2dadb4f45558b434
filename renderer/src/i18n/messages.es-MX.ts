/** El catálogo en español de México (es-MX): cada clave del catálogo en-US, con los mismos `{marcadores}`. */
import type { Catalogue } from './catalogue';

export const esMX: Catalogue = {
  'common.cancel': 'Cancelar',
  'common.continue': 'Continuar',
  'common.retry': 'Intentar de nuevo',
  'common.close': 'Cerrar',
  'common.loading': 'Cargando…',
  'common.requiredField': 'Este campo es obligatorio.',
  'common.optional': '(opcional)',

  'card.legend': 'Datos de la tarjeta',
  'card.number.label': 'Número de tarjeta',
  'card.number.brand': 'Marca: {brand}',
  'card.number.error.incomplete': 'El número de tarjeta está incompleto: verifique los dígitos con el huésped.',
  'card.number.error.invalid': 'El número de tarjeta no es válido: verifique los dígitos con el huésped.',
  'card.expiry.label': 'Vencimiento (MM/AA)',
  'card.expiry.error.incomplete': 'Escriba el vencimiento como mes y año, MM/AA.',
  'card.expiry.error.month': 'El mes de vencimiento debe ser de 01 a 12.',
  'card.expiry.error.expired': 'Esta tarjeta está vencida: verifique la fecha de vencimiento con el huésped.',
  'card.expiry.error.tooFar': 'El año de vencimiento es demasiado lejano: verifíquelo con el huésped.',
  'card.cvc.label': 'Código de seguridad (CVV)',
  'card.cvc.hint': '{length} dígitos',
  'card.cvc.error.length': 'El código de seguridad debe tener {length} dígitos para esta tarjeta.',
  'card.holder.label': 'Nombre del titular',

  'card.brand.unknown': 'Marca no reconocida',
  'card.summary': '{brand} •••• {last4}',
  'card.summary.label': 'Tarjeta lista para el cobro:',
  'card.status.tokenizing': 'Verificando la tarjeta…',
  'card.status.paying': 'Enviando el pago…',

  'card.action.continue': 'Continuar',
  'card.action.saveMethod': 'Guardar tarjeta',
  'card.action.anotherCard': 'Usar otra tarjeta',
  'card.shortcut.continue': 'continuar',
  'card.shortcut.cancel': 'cancelar',

  'card.installments.legend': 'Meses sin intereses (MSI)',
  'card.installments.none': 'Pago de contado',
  'card.installments.plan': '{count} meses de {amount}',

  'card.error.card_declined': 'El banco emisor rechazó la tarjeta. Pida al huésped otra tarjeta.',
  'card.error.insufficient_funds': 'La tarjeta no tiene fondos suficientes para este monto. Pida al huésped otra tarjeta.',
  'card.error.expired_card': 'El banco reporta la tarjeta como vencida. Verifique la fecha de vencimiento o pida otra tarjeta.',
  'card.error.incorrect_cvc': 'El código de seguridad (CVV) es incorrecto. Pida al huésped que se lo lea de nuevo.',
  'card.error.processing_error': 'El banco no pudo procesar la tarjeta. Intente de nuevo en un momento.',
  'card.error.invalid_card': 'Los datos de la tarjeta no son válidos. Verifíquelos con el huésped y vuelva a capturarlos.',
  'card.error.authentication_failed': 'El tarjetahabiente no completó la verificación de su banco (3-D Secure). Pida otra tarjeta.',
  'card.error.busy': 'La tarjeta ya se está procesando: espere la respuesta.',
  'card.error.cancelled': 'Se canceló la captura de la tarjeta.',
  'card.error.unexpected': 'No se pudo procesar la tarjeta por un error inesperado. Intente de nuevo; si vuelve a ocurrir, avise a TI.',
};
